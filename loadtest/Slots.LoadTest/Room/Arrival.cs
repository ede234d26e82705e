using System.Diagnostics;
using System.Net;
using System.Net.Http.Headers;
using System.Text.Json;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Room;

/// <summary>Where the crowd is sent: the opening, the place in it and the day on sale, and the shared bounds.</summary>
public sealed record RoomTarget(long OpeningId, int PlaceId, string Day, Recorder Recorder, SemaphoreSlim InFlight);

/// <summary>
/// One person in the waiting room, as the SPA's room page does it: join, ask where they stand at
/// the pace Retry-After sets (plus jitter), and once admitted read the day at the place and book a
/// free slot with the token and an Idempotency-Key (another slot, with a new key, when it filled
/// meanwhile), while the admission lasts. Some join a second time (a reload), some never book.
/// </summary>
public sealed class Arrival(ArrivalLog log, RoomOptions options, RoomTarget room, HttpClient client, Uri target)
{
    private static readonly MediaTypeHeaderValue Json = new("application/json");
    private static readonly TimeSpan BaseBackoff = TimeSpan.FromMilliseconds(500);
    private static readonly TimeSpan MaxBackoff = TimeSpan.FromSeconds(8);

    private readonly Random _rng = new(HashCode.Combine(options.Seed, log.Number));
    private readonly Recorder _recorder = room.Recorder;

    private string NationalId => $"{options.RunId}{log.Number:D9}";

    private sealed record Answer(HttpStatusCode Status, byte[] Body, TimeSpan? RetryAfter, double SentAt, double At);

    public async Task RunAsync(CancellationToken runEnd)
    {
        try
        {
            log.Outcome = await VisitAsync(runEnd);
        }
        catch (OperationCanceledException) when (runEnd.IsCancellationRequested)
        {
            log.Outcome = ArrivalOutcome.CutOff;
        }
    }

    private async Task<ArrivalOutcome> VisitAsync(CancellationToken ct)
    {
        var join = await SendAsync("join", JoinRequest, ct);
        if (join is null)
        {
            return ArrivalOutcome.NoAnswer;
        }
        if (join.Status is not (HttpStatusCode.Created or HttpStatusCode.OK))
        {
            return Answers.ReadProblem(join.Body)?.Code == "opening-closed" ? ArrivalOutcome.Closed : Rejected("join", join);
        }
        var joined = JsonSerializer.Deserialize(join.Body, RoomJson.Default.JoinedBody)!;
        (log.JoinStatus, log.JoinSentAt, log.JoinAt) = ((int)join.Status, join.SentAt, join.At);
        var token = joined.Token;
        var status = joined.Status;
        var wait = Note(status, join);
        var rejoinPending = log.Rejoins;
        while (true)
        {
            switch (status.State)
            {
                case "waiting":
                    break;
                case "admitted" when log.Abandons:
                    return ArrivalOutcome.Abandoned;
                case "admitted":
                    if (await BookAsync(token, status.AdmittedUntil, ct) is { } outcome)
                    {
                        return outcome;
                    }
                    wait = TimeSpan.FromSeconds(1); // the gate says not yet: back to asking, soon
                    break;
                case "no-seats-left":
                    return ArrivalOutcome.NoSeatsLeft;
                case "closed":
                    return ArrivalOutcome.Closed;
                case "expired":
                    return ArrivalOutcome.Expired;
                default:
                    log.Rejection = "status " + status.State;
                    return ArrivalOutcome.Rejected;
            }
            await Task.Delay(RetryAfter.Delay(1, wait, BaseBackoff, MaxBackoff, options.MaxJitter, _rng), ct);
            if (rejoinPending)
            {
                // A reload of the room page: the same person joins again and must get the same place in line.
                rejoinPending = false;
                var rejoin = await SendAsync("join", JoinRequest, ct);
                log.RejoinStatus = (int?)rejoin?.Status;
                if (rejoin is { Status: HttpStatusCode.Created or HttpStatusCode.OK })
                {
                    var again = JsonSerializer.Deserialize(rejoin.Body, RoomJson.Default.JoinedBody)!;
                    log.RejoinPosition = again.Status.Position;
                    status = again.Status;
                    wait = Note(status, rejoin, rejoin: true);
                }
                continue; // otherwise still holding the first token
            }
            var answer = await SendAsync("status", () => StatusRequest(token), ct);
            if (answer is null)
            {
                continue;
            }
            log.Polls++;
            if (answer.Status != HttpStatusCode.OK)
            {
                return Rejected("status", answer);
            }
            status = JsonSerializer.Deserialize(answer.Body, RoomJson.Default.RoomStatusBody)!;
            wait = Note(status, answer);
        }
    }

    /// <summary>
    /// Records what a status says the first time it says it; answers the wait it asks for. The
    /// place in line is taken from the first join's token only, so a second join is checked against it.
    /// </summary>
    private TimeSpan Note(RoomStatusBody status, Answer answer, bool rejoin = false)
    {
        if (!rejoin)
        {
            log.Position ??= status.Position;
        }
        switch (status.State)
        {
            case "waiting" when status.Position is not null:
                log.LastWaitingSentAt = answer.SentAt;
                break;
            case "admitted":
                log.AdmittedAt ??= answer.At;
                break;
            case "no-seats-left":
                log.NoSeatsAt ??= answer.At;
                break;
        }
        return answer.RetryAfter ?? TimeSpan.FromSeconds(status.AskAgainSeconds);
    }

    /// <summary>The booking while the admission lasts; null when the gate says the turn has not come.</summary>
    private async Task<ArrivalOutcome?> BookAsync(string token, DateTimeOffset? admittedUntil, CancellationToken ct)
    {
        string? time = null;
        for (var attempt = 1; attempt <= options.MaxBookingAttempts; attempt++)
        {
            if (admittedUntil is { } until && DateTimeOffset.UtcNow > until)
            {
                return ArrivalOutcome.Expired;
            }
            time ??= await LookAsync(ct);
            if (time is null)
            {
                return ArrivalOutcome.NoFreeSeat;
            }
            // One key per distinct booking, the same on every resend of it.
            var key = $"room-{options.RunId}-{log.Number}-{attempt}";
            var slot = time;
            var answer = await SendAsync("reserve", () => ReserveRequest(slot, key, token), ct);
            if (answer is null)
            {
                return ArrivalOutcome.NoAnswer;
            }
            if (answer.Status == HttpStatusCode.Created)
            {
                log.BookedAt = answer.At;
                _recorder.Confirmed(JsonSerializer.Deserialize(answer.Body, WireJson.Default.ReservationBody)!);
                return ArrivalOutcome.Booked;
            }
            var problem = Answers.ReadProblem(answer.Body);
            switch (problem?.Code)
            {
                case "slot-full":
                    // The suggested slot when it is at this place (elsewhere is outside the opening), else a fresh look.
                    time = problem.Alternatives?.FirstOrDefault(a => a.PlaceId == room.PlaceId && a.Day == room.Day)?.Time;
                    continue;
                case "waiting-room-not-admitted":
                    return null;
                case "waiting-room-admission-expired":
                    return ArrivalOutcome.Expired;
                default:
                    return Rejected("reserve", answer);
            }
        }
        log.Rejection = "booking attempts spent";
        return ArrivalOutcome.Rejected;
    }

    /// <summary>An answer the flow has no next step for: its status and problem code are kept (no body, no personal data).</summary>
    private ArrivalOutcome Rejected(string operation, Answer answer)
    {
        log.Rejection = $"{operation} {(int)answer.Status} {Answers.ReadProblem(answer.Body)?.Code ?? "(no code)"}";
        return ArrivalOutcome.Rejected;
    }

    /// <summary>The day on sale at the place: one of the first free slots, mostly, as people pick.</summary>
    private async Task<string?> LookAsync(CancellationToken ct)
    {
        var url = $"/api/places/{room.PlaceId}/availability?from={room.Day}&to={room.Day}";
        var answer = await SendAsync("availability", () => new HttpRequestMessage(HttpMethod.Get, new Uri(target, url)), ct);
        if (answer is not { Status: HttpStatusCode.OK })
        {
            return null;
        }
        var day = JsonSerializer.Deserialize(answer.Body, WireJson.Default.AvailabilityBody)!;
        var free = day.Days.SelectMany(d => d.Slots).Where(s => s.Free > 0).Select(s => s.Time).ToList();
        if (free.Count == 0)
        {
            return null;
        }
        return _rng.NextDouble() < 0.7 ? free[_rng.Next(Math.Min(3, free.Count))] : free[_rng.Next(free.Count)];
    }

    private HttpRequestMessage JoinRequest()
    {
        var content = new ByteArrayContent(JsonSerializer.SerializeToUtf8Bytes(new JoinBody(NationalId), RoomJson.Default.JoinBody));
        content.Headers.ContentType = Json;
        return new HttpRequestMessage(HttpMethod.Post, new Uri(target, $"/api/waiting-room/openings/{room.OpeningId}/join")) { Content = content };
    }

    private HttpRequestMessage StatusRequest(string token)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, new Uri(target, "/api/waiting-room/status"));
        request.Headers.Add("Waiting-Room-Token", token);
        return request;
    }

    private HttpRequestMessage ReserveRequest(string time, string key, string token)
    {
        var body = new ReserveBody(room.PlaceId, room.Day, time, $"Room Tester {log.Number}",
            $"+4219{10_000_000 + (log.Number % 90_000_000)}", NationalId, "sk");
        var content = new ByteArrayContent(JsonSerializer.SerializeToUtf8Bytes(body, WireJson.Default.ReserveBody));
        content.Headers.ContentType = Json;
        var request = new HttpRequestMessage(HttpMethod.Post, new Uri(target, "/api/reservations")) { Content = content };
        request.Headers.Add("Idempotency-Key", key);
        request.Headers.Add("Waiting-Room-Token", token);
        return request;
    }

    /// <summary>
    /// Sends until an answer that is not "wait" comes: after Retry-After (+ jitter) on 429, 503 and
    /// request-in-progress, at once the first time its connection closes before an answer (a join and a
    /// booking are the same request again: one place in line per person, the booking's Idempotency-Key), after
    /// a back-off on no answer. At most MaxInFlight requests are out at once across the crowd; the time spent
    /// waiting for that turn is not in the latency.
    /// </summary>
    private async Task<Answer?> SendAsync(string operation, Func<HttpRequestMessage> create, CancellationToken ct)
    {
        var resent = false;
        for (var attempt = 1; attempt <= 30; attempt++)
        {
            TimeSpan? serverDelay = null;
            await room.InFlight.WaitAsync(ct);
            try
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
                timeout.CancelAfter(options.RequestTimeout);
                var sentAt = _recorder.SecondsSinceStart;
                var sent = Stopwatch.GetTimestamp();
                using var request = create();
                using var response = await client.SendAsync(request, HttpCompletionOption.ResponseContentRead, timeout.Token);
                var body = await response.Content.ReadAsByteArrayAsync(timeout.Token);
                _recorder.Answer(operation, (int)response.StatusCode, Stopwatch.GetElapsedTime(sent),
                    (int)response.StatusCode >= 500 ? Answers.ReadProblem(body)?.Code ?? "(no code)" : null);
                serverDelay = RetryAfter.Parse(response.Headers.RetryAfter?.ToString(), DateTimeOffset.UtcNow);
                if (!Answers.IsWait(response.StatusCode, body))
                {
                    return new Answer(response.StatusCode, body, serverDelay, sentAt, _recorder.SecondsSinceStart);
                }
            }
            catch (OperationCanceledException) when (!ct.IsCancellationRequested)
            {
                _recorder.Failure(operation, $"timeout after {options.RequestTimeout.TotalSeconds:0.#} s");
            }
            catch (OperationCanceledException)
            {
                _recorder.Failure(operation, "cut off in flight (run end)");
                throw;
            }
            catch (HttpRequestException ex) when (!resent && Answers.EndedUnanswered(ex))
            {
                _recorder.Failure(operation, Answers.ResentAtOnce);
                resent = true;
                continue;
            }
            catch (HttpRequestException ex)
            {
                _recorder.Failure(operation, $"no answer: {ex.HttpRequestError}");
            }
            finally
            {
                room.InFlight.Release();
            }
            await Task.Delay(RetryAfter.Delay(attempt, serverDelay, BaseBackoff, MaxBackoff, options.MaxJitter, _rng), ct);
        }
        return null;
    }
}
