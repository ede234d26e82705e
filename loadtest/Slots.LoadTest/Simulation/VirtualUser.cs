using System.Collections.Concurrent;
using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;

namespace Slots.LoadTest.Simulation;

/// <summary>
/// One person at the booking page, doing what the SPA does (frontend/src/api/retry.ts,
/// booking/useBookingAttempt.ts): look at a week of a place, pick a free slot, book it with an
/// Idempotency-Key made once per booking, wait as long as Retry-After says (plus jitter) on
/// 429/503/request-in-progress and resend with the same key, take an offered alternative when
/// the slot filled meanwhile, and give up after a bounded time.
/// </summary>
/// <param name="rng">The user's random choices: a closed crowd's lane passes its own, kept over the run (a seeded
/// <see cref="Random"/> costs more to make than a no-op request to send); otherwise one of the user's own.</param>
public sealed class VirtualUser(long number, SimulationOptions options, Catalog catalog, HttpClient client, Uri target, Recorder recorder, ActiveUsers? active = null, Random? rng = null)
{
    private static readonly MediaTypeHeaderValue Json = new("application/json");
    private static readonly TimeSpan BaseBackoff = TimeSpan.FromMilliseconds(500);
    private static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(8);
    private static readonly ConcurrentDictionary<(Uri Target, Endpoint Endpoint), Uri> ReserveUris = new();

    private readonly Random _rng = rng ?? new(HashCode.Combine(options.Seed, number));
    private readonly long _startedAt = Stopwatch.GetTimestamp();
    private bool _outOfTime;

    /// <summary>The reservation POST's address on this user's target, parsed once per target and endpoint, not per request.</summary>
    private Uri ReserveUri => ReserveUris.GetOrAdd((target, options.Endpoint), static key => new Uri(key.Target, key.Endpoint switch
    {
        Endpoint.Baseline => "/api/benchmark/reservations",
        Endpoint.Noop => "/api/benchmark/noop",
        _ => "/api/reservations",
    }));

    public async Task RunAsync(CancellationToken runEnd)
    {
        UserOutcome outcome;
        try
        {
            outcome = await VisitAsync(runEnd);
        }
        catch (OperationCanceledException) when (runEnd.IsCancellationRequested)
        {
            outcome = UserOutcome.CutOff;
        }
        recorder.Ended(outcome);
    }

    private async Task<UserOutcome> VisitAsync(CancellationToken ct)
    {
        SlotChoice? choice = options.Flow == Flow.Reserve ? catalog.Pick(_rng) : await LookAsync(ct);
        if (choice is null)
        {
            return _outOfTime ? UserOutcome.GaveUp : UserOutcome.NoFreeSeat;
        }
        for (var booking = 1; booking <= options.MaxBookingAttempts; booking++)
        {
            // One key per distinct booking, the same on every resend of it.
            var key = $"lt-{options.RunId}-{number}-{booking}";
            var answer = await SendAsync("reserve", () => ReserveRequest(choice.Value, key), ct);
            if (answer is null)
            {
                return UserOutcome.GaveUp;
            }
            var (status, body) = answer.Value;
            if (status == HttpStatusCode.Created)
            {
                recorder.Confirmed(JsonSerializer.Deserialize(body, WireJson.Default.ReservationBody)!);
                return UserOutcome.Booked;
            }
            if ((int)status is >= 200 and < 300)
            {
                return UserOutcome.Booked; // the no-op endpoint
            }
            var problem = status == HttpStatusCode.Conflict ? Answers.ReadProblem(body) : null;
            if (problem?.Code == "already-booked")
            {
                return UserOutcome.AlreadyBooked;
            }
            // A pair whose second dose found no seat in its interval: as for a full slot, another pick.
            if (problem?.Code is not ("slot-full" or "second-dose-full"))
            {
                return UserOutcome.Rejected;
            }
            // As the SPA offers: the nearest free slot the server suggested, or another pick.
            choice = problem.Alternatives is { Count: > 0 } alternatives
                ? new SlotChoice(alternatives[0].PlaceId, alternatives[0].Day, alternatives[0].Time)
                : catalog.Pick(_rng);
        }
        return UserOutcome.SlotFull;
    }

    /// <summary>The week view: a week of one place from a (mostly popular) day; the earliest free slot, mostly.</summary>
    private async Task<SlotChoice?> LookAsync(CancellationToken ct)
    {
        var (placeId, from) = catalog.PickPlaceAndDay(_rng);
        var url = $"/api/places/{placeId}/availability?from={Catalog.Day(from)}&to={Catalog.Day(from.AddDays(6))}";
        var answer = await SendAsync("availability", () => new HttpRequestMessage(HttpMethod.Get, new Uri(target, url)), ct);
        if (answer is not (HttpStatusCode.OK, var body))
        {
            return null;
        }
        var week = JsonSerializer.Deserialize(body, WireJson.Default.AvailabilityBody)!;
        var free = week.Days.SelectMany(d => d.Slots.Where(s => s.Free > 0).Select(s => new SlotChoice(placeId, d.Day, s.Time))).ToList();
        if (free.Count == 0)
        {
            return null;
        }
        // Most people take one of the first free slots; some scroll on.
        return _rng.NextDouble() < 0.7 ? free[_rng.Next(Math.Min(3, free.Count))] : free[_rng.Next(free.Count)];
    }

    private HttpRequestMessage ReserveRequest(SlotChoice slot, string key)
    {
        var body = new ReserveBody(slot.PlaceId, slot.Day, slot.Time, $"Load Tester {number}",
            $"+4219{10_000_000 + (number % 90_000_000)}", options.BirthNumbers?.For(number) ?? $"{options.RunId}{number:D9}", "sk",
            options.Invitations is { Count: > 0 } codes ? codes[(int)(number % codes.Count)] : null);
        var content = new ByteArrayContent(JsonSerializer.SerializeToUtf8Bytes(body, WireJson.Default.ReserveBody));
        content.Headers.ContentType = Json;
        var request = new HttpRequestMessage(HttpMethod.Post, ReserveUri) { Content = content };
        request.Headers.TryAddWithoutValidation("Idempotency-Key", key); // ASCII letters, digits and dashes made here
        return request;
    }

    /// <summary>
    /// Sends until an answer that is not "wait" comes, resending after Retry-After (+ jitter) on
    /// 429, 503 and request-in-progress, at once the first time its connection closes before an answer
    /// (<see cref="Answers.ResentAtOnce"/>), and after a back-off on no answer at all. Null when the
    /// user's time ran out first. One timer per request: the request timeout, or what is left of
    /// the user's give-up time when that is shorter.
    /// </summary>
    private async Task<(HttpStatusCode Status, byte[] Body)?> SendAsync(string operation, Func<HttpRequestMessage> create, CancellationToken runEnd)
    {
        var resent = false;
        for (var attempt = 1; ; attempt++)
        {
            TimeSpan? serverDelay = null;
            var left = options.GiveUp - Stopwatch.GetElapsedTime(_startedAt);
            if (left <= TimeSpan.Zero)
            {
                return OutOfTime();
            }
            var givingUp = left < options.RequestTimeout;
            using var timeout = CancellationTokenSource.CreateLinkedTokenSource(runEnd);
            timeout.CancelAfter(givingUp ? left : options.RequestTimeout);
            var sent = Stopwatch.GetTimestamp();
            try
            {
                using var request = create();
                using var response = await client.SendAsync(request, HttpCompletionOption.ResponseContentRead, timeout.Token);
                var body = await response.Content.ReadAsByteArrayAsync(timeout.Token);
                recorder.Answer(operation, (int)response.StatusCode, Stopwatch.GetElapsedTime(sent));
                if (!Answers.IsWait(response.StatusCode, body))
                {
                    return (response.StatusCode, body);
                }
                serverDelay = RetryAfter.Parse(response.Headers.RetryAfter?.ToString(), DateTimeOffset.UtcNow);
            }
            catch (OperationCanceledException) when (!runEnd.IsCancellationRequested && givingUp)
            {
                recorder.Failure(operation, "cut off in flight (give-up bound or run end)");
                return OutOfTime();
            }
            catch (OperationCanceledException) when (!runEnd.IsCancellationRequested)
            {
                recorder.Failure(operation, $"timeout after {options.RequestTimeout.TotalSeconds:0.#} s");
            }
            catch (OperationCanceledException)
            {
                recorder.Failure(operation, "cut off in flight (give-up bound or run end)");
                throw;
            }
            catch (HttpRequestException ex) when (!resent && Answers.EndedUnanswered(ex))
            {
                recorder.Failure(operation, Answers.ResentAtOnce);
                resent = true;
                continue;
            }
            catch (HttpRequestException ex)
            {
                recorder.Failure(operation, $"no answer: {ex.HttpRequestError}");
            }
            var delay = RetryAfter.Delay(attempt, serverDelay, BaseBackoff, MaxBackoff, options.MaxJitter, _rng);
            if (Stopwatch.GetElapsedTime(_startedAt) + delay > options.GiveUp)
            {
                return OutOfTime();
            }
            // Asleep, this user leaves room for another arrival (open runs bound only active users).
            active?.Sleeping();
            try
            {
                await Task.Delay(delay, runEnd);
            }
            finally
            {
                active?.Woke();
            }
        }
    }

    private (HttpStatusCode, byte[])? OutOfTime()
    {
        _outOfTime = true;
        return null;
    }
}
