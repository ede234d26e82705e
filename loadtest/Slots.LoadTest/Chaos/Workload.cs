using System.Net;
using System.Net.Http.Json;
using System.Text.Json;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Chaos;

/// <summary>
/// The booking workload of the chaos soak: each worker owns a share of synthetic persons and, for
/// one of them at a time, reserves (retrying with the same key when the answer is lost), looks up,
/// cancels, reschedules, or replays the key that made its booking. A person's operations are
/// sequential, so the checker can order them. Every attempt goes to the history.
/// </summary>
public sealed class Workload(IReadOnlyList<Uri> targets, SourceAddresses sources, IReadOnlyList<SlotChoice> slots, int persons, int workers,
    string runId, int seed, TimeSpan requestTimeout, HistoryRecorder history)
{
    private const int RetriesAfterUnknown = 3;

    /// <summary>Requests so far: each goes to the next target in turn, so with two HAProxy nodes every person uses both.</summary>
    private int _sent;

    private sealed class Person(int number, string runId)
    {
        public int Number { get; } = number;
        public string Phone { get; } = $"+4219{20_000_000 + number}";
        public string NationalId { get; } = $"{runId}{number:D9}";
        public string? Code { get; set; }

        /// <summary>The key and body that made <see cref="Code"/>, for replays.</summary>
        public (string Key, ReserveBody Body)? Booking { get; set; }
    }

    public async Task RunAsync(CancellationToken stop)
    {
        var people = Enumerable.Range(1, persons).Select(n => new Person(n, runId)).ToArray();
        await Task.WhenAll(Enumerable.Range(0, workers).Select(w => Task.Run(async () =>
        {
            var mine = people.Where(p => p.Number % workers == w).ToArray();
            var rng = new Random(seed * 7919 + w);
            var client = sources.For(w);
            while (!stop.IsCancellationRequested && mine.Length > 0)
            {
                await StepAsync(client, mine[rng.Next(mine.Length)], rng, stop);
                try
                {
                    await Task.Delay(rng.Next(20, 120), stop);
                }
                catch (OperationCanceledException)
                {
                    break;
                }
            }
        }, CancellationToken.None)));
    }

    private async Task StepAsync(HttpClient client, Person p, Random rng, CancellationToken stop)
    {
        if (p.Code is null)
        {
            await ReserveAsync(client, p, slots[rng.Next(slots.Count)], rng, stop);
            return;
        }
        var roll = rng.NextDouble();
        if (roll < 0.3)
        {
            await SendAsync(client, OpKind.Lookup, p, HttpMethod.Get, $"/api/reservations/{p.Code}", null, null, p.Code, null, stop);
        }
        else if (roll < 0.55)
        {
            await UntilKnownAsync(rng, () => SendAsync(client, OpKind.Cancel, p, HttpMethod.Delete, $"/api/reservations/{p.Code}", null, null, p.Code, null, stop),
                op => { p.Code = op.Status is 204 or 404 ? null : p.Code; }, stop);
        }
        else if (roll < 0.8)
        {
            var to = slots[rng.Next(slots.Count)];
            var code = p.Code;
            await UntilKnownAsync(rng, () => SendAsync(client, OpKind.Reschedule, p, HttpMethod.Post, $"/api/reservations/{code}/reschedule",
                    JsonContent.Create(new { placeId = to.PlaceId, day = to.Day, time = to.Time }), null, code, to, stop),
                op => { p.Code = op.Status == 404 ? null : p.Code; }, stop);
        }
        else if (p.Booking is { } booking)
        {
            await SendReserveAsync(client, OpKind.Retry, p, booking.Key, booking.Body, stop);
        }
    }

    private async Task ReserveAsync(HttpClient client, Person p, SlotChoice slot, Random rng, CancellationToken stop)
    {
        var key = $"chaos-{runId}-{Guid.NewGuid():N}";
        var body = new ReserveBody(slot.PlaceId, slot.Day, slot.Time, $"Chaos Person {p.Number}", p.Phone, p.NationalId, "en");
        var op = await SendReserveAsync(client, OpKind.Reserve, p, key, body, stop);
        for (var i = 0; i < RetriesAfterUnknown && op is not null && Again(op) && !stop.IsCancellationRequested; i++)
        {
            await Pause(rng, stop);
            op = await SendReserveAsync(client, OpKind.Retry, p, key, body, stop);
        }
        if (op is { Status: 201 })
        {
            p.Code = op.ResultCode;
            p.Booking = (key, body);
        }
        else if (op is { Status: 409, Problem: "already-booked", ResultCode: { } existing })
        {
            // An earlier attempt whose answer was lost did book: carry on with that reservation.
            p.Code = existing;
            p.Booking = null;
        }
    }

    /// <summary>Worth resending with the same key: no answer, a 5xx, the door's 429, or the same key still in flight.</summary>
    private static bool Again(Operation op) =>
        op.Outcome == Outcome.Unknown || op.Status is 429 or 503 || op.Problem == "request-in-progress";

    private static async Task Pause(Random rng, CancellationToken stop)
    {
        try
        {
            await Task.Delay(rng.Next(300, 1200), stop);
        }
        catch (OperationCanceledException)
        {
            // The run is ending; the retry is sent anyway so the key gets its answer if it can.
        }
    }

    private static async Task UntilKnownAsync(Random rng, Func<Task<Operation?>> send, Action<Operation> known, CancellationToken stop)
    {
        var op = await send();
        for (var i = 0; i < RetriesAfterUnknown && op is not null && Again(op) && !stop.IsCancellationRequested; i++)
        {
            await Pause(rng, stop);
            op = await send();
        }
        if (op is not null && op.Outcome != Outcome.Unknown)
        {
            known(op);
        }
    }

    private Task<Operation?> SendReserveAsync(HttpClient client, OpKind kind, Person p, string key, ReserveBody body, CancellationToken stop)
    {
        var content = new ByteArrayContent(JsonSerializer.SerializeToUtf8Bytes(body, WireJson.Default.ReserveBody));
        content.Headers.ContentType = new System.Net.Http.Headers.MediaTypeHeaderValue("application/json");
        return SendAsync(client, kind, p, HttpMethod.Post, "/api/reservations", content, key, null,
            new SlotChoice(body.PlaceId, body.Day, body.Time), stop);
    }

    private async Task<Operation?> SendAsync(HttpClient client, OpKind kind, Person p, HttpMethod method, string path, HttpContent? content,
        string? key, string? code, SlotChoice? slot, CancellationToken stop)
    {
        var target = targets[(int)((uint)Interlocked.Increment(ref _sent) % (uint)targets.Count)];
        using var request = new HttpRequestMessage(method, new Uri(target, path)) { Content = content };
        if (key is not null)
        {
            request.Headers.Add("Idempotency-Key", key);
        }
        if (code is not null)
        {
            request.Headers.Add("Slots-Phone", p.Phone);
        }
        var id = history.NextId();
        var invoked = history.NowMs;
        var op = new Operation(id, kind, p.Number, invoked, invoked, Outcome.Unknown, Key: key, Code: code,
            PlaceId: slot?.PlaceId, Day: slot?.Day, Time: slot?.Time);
        // A request already sent is seen through even when the run is stopping: its answer belongs in the history.
        using var timeout = new CancellationTokenSource(requestTimeout);
        try
        {
            using var response = await client.SendAsync(request, timeout.Token);
            var text = await response.Content.ReadAsStringAsync(timeout.Token);
            op = Answered(op, (int)response.StatusCode, text) with { CompleteMs = history.NowMs, RetryAfter = response.Headers.RetryAfter is null ? null : true };
        }
        catch (Exception ex) when (ex is HttpRequestException or OperationCanceledException or IOException)
        {
            op = op with { CompleteMs = history.NowMs, Problem = ex is OperationCanceledException ? "timeout" : "no-answer" };
        }
        history.Record(op);
        return stop.IsCancellationRequested && op.Outcome == Outcome.Unknown ? null : op;
    }

    private static Operation Answered(Operation op, int status, string text)
    {
        JsonElement? json = null;
        try
        {
            json = text.Length > 0 ? JsonDocument.Parse(text).RootElement.Clone() : null;
        }
        catch (JsonException)
        {
            // HAProxy's own pages are not JSON.
        }
        string? Str(string name) => json is { ValueKind: JsonValueKind.Object } j && j.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.String ? v.GetString() : null;
        int? Int(string name) => json is { ValueKind: JsonValueKind.Object } j && j.TryGetProperty(name, out var v) && v.ValueKind == JsonValueKind.Number ? v.GetInt32() : null;
        var outcome = status switch
        {
            >= 200 and < 300 => Outcome.Ok,
            >= 400 and < 500 => Outcome.Fail,
            _ => Outcome.Unknown,
        };
        op = op with { Status = status, Outcome = outcome };
        if (outcome == Outcome.Ok && op.Kind is OpKind.Reserve or OpKind.Retry)
        {
            return op with { ResultCode = Str("code") };
        }
        if (outcome == Outcome.Ok && op.Kind == OpKind.Lookup)
        {
            return op with { ResultCode = Str("code"), ResultPlaceId = Int("placeId"), ResultDay = Str("day"), ResultTime = Str("time") };
        }
        return op with { Problem = outcome == Outcome.Ok ? null : Str("code") ?? status.ToString(System.Globalization.CultureInfo.InvariantCulture), ResultCode = Str("existingCode") };
    }
}
