using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Options;
using Slots.Places;
using Slots.Window;

namespace Slots.Reservations;

public sealed class ReservationOptions
{
    public const string Section = "Slots:Reservations";

    /// <summary>How long a repeat waits for the first request with its idempotency key before it gets 409 + Retry-After.</summary>
    public TimeSpan InFlightWait { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>How many free slots a slot-full answer suggests.</summary>
    public int Alternatives { get; set; } = 5;
}

/// <summary>A reservation request after validation: normalised phone, hashed person, parsed slot.</summary>
public sealed record BookingRequest(SlotKey Slot, string Name, string Phone, string PersonHash, string Language);

/// <summary>What the person is told, with what the answer needs for its body.</summary>
public sealed record BookingAnswer(
    ReservationStatus Status,
    string? Code = null,
    bool Replayed = false,
    IReadOnlyList<SlotAvailability>? Alternatives = null,
    (DateOnly First, DateOnly Last)? Window = null);

/// <summary>
/// The reservation use case in front of the store: the checks that need no database, the
/// in-flight coalescing of repeats with one idempotency key, and the alternatives offered when
/// a slot is full.
/// </summary>
public sealed class ReservationService(
    IReservationStore store,
    PlaceDirectory places,
    TimeProvider clock,
    IOptions<WindowOptions> window,
    IOptions<ReservationOptions> options)
{
    private readonly ConcurrentDictionary<string, InFlight> _inFlight = new(StringComparer.Ordinal);

    private sealed record InFlight(string Fingerprint, Task<BookingAnswer> Answer);

    public async Task<BookingAnswer> ReserveAsync(BookingRequest request, string idempotencyKey, CancellationToken ct)
    {
        var fingerprint = Fingerprint(request);
        var mine = new TaskCompletionSource<BookingAnswer>(TaskCreationOptions.RunContinuationsAsynchronously);
        var entry = new InFlight(fingerprint, mine.Task);
        var running = _inFlight.GetOrAdd(idempotencyKey, entry);
        if (!ReferenceEquals(running, entry))
        {
            return await AwaitRunningAsync(running, fingerprint, ct);
        }
        try
        {
            // Not the caller's token: once started, a booking completes even if this client has gone.
            var answer = await DecideAsync(request, idempotencyKey, fingerprint, CancellationToken.None);
            mine.SetResult(answer);
            return answer;
        }
        catch (Exception ex)
        {
            mine.SetException(ex);
            throw;
        }
        finally
        {
            _inFlight.TryRemove(new KeyValuePair<string, InFlight>(idempotencyKey, entry));
        }
    }

    private async Task<BookingAnswer> AwaitRunningAsync(InFlight running, string fingerprint, CancellationToken ct)
    {
        if (running.Fingerprint != fingerprint)
        {
            return new BookingAnswer(ReservationStatus.KeyReused);
        }
        try
        {
            var answer = await running.Answer.WaitAsync(options.Value.InFlightWait, clock, ct);
            return answer with { Replayed = true };
        }
        catch (TimeoutException)
        {
            return new BookingAnswer(ReservationStatus.InProgress);
        }
    }

    private async Task<BookingAnswer> DecideAsync(BookingRequest request, string key, string fingerprint, CancellationToken ct)
    {
        var place = await places.FindAsync(request.Slot.PlaceId, ct);
        if (place is not { Active: true })
        {
            return new BookingAnswer(ReservationStatus.UnknownPlace);
        }
        var now = clock.GetUtcNow();
        var (first, last) = WindowOf(place, now);
        if (request.Slot.Day < first || request.Slot.Day > last)
        {
            return new BookingAnswer(ReservationStatus.OutsideWindow, Window: (first, last));
        }
        var command = new ReserveCommand(request.Slot, request.PersonHash, request.Phone, request.Name, request.Language,
            ConfirmationCode.New(), key, fingerprint, now);
        var result = await store.ReserveAsync(command, ct);
        if (result is not { } outcome)
        {
            return new BookingAnswer(ReservationStatus.KeyReused);
        }
        var alternatives = outcome.Status == ReservationStatus.SlotFull
            ? await NearestFreeAsync(place, request.Slot, now, ct)
            : null;
        return new BookingAnswer(outcome.Status, outcome.Code, outcome.Replayed, alternatives);
    }

    /// <summary>The bookable days of a place: today and the next Days-1 days in its time zone.</summary>
    public (DateOnly First, DateOnly Last) WindowOf(PlaceInfo place, DateTimeOffset now)
    {
        var today = LocalClock.Today(place, now);
        return (today, today.AddDays(window.Value.Days - 1));
    }

    /// <summary>Free slots at the same place closest in time to the one that was full.</summary>
    public async Task<IReadOnlyList<SlotAvailability>> NearestFreeAsync(PlaceInfo place, SlotKey wanted, DateTimeOffset now, CancellationToken ct)
    {
        var (first, last) = WindowOf(place, now);
        var from = wanted.Day.AddDays(-2) < first ? first : wanted.Day.AddDays(-2);
        var to = wanted.Day.AddDays(3) > last ? last : wanted.Day.AddDays(3);
        var wantedAt = LocalClock.ToInstant(wanted.Day, wanted.StartMinute, place.TimeZone).ToUnixTimeSeconds();
        var nowUnix = now.ToUnixTimeSeconds();
        var slots = await store.GetAvailabilityAsync(place.Id, from, to, ct);
        return slots
            .Where(s => s.Free > 0 && s.StartsAtUnix > nowUnix)
            .OrderBy(s => Math.Abs(s.StartsAtUnix - wantedAt))
            .Take(options.Value.Alternatives)
            .OrderBy(s => s.StartsAtUnix)
            .ToList();
    }

    public async Task<ReservationDetails?> FindAsync(string code, ContactProof proof, CancellationToken ct)
    {
        var found = await store.FindAsync(code, ct);
        return found is not null && Owns(found, proof) ? found : null;
    }

    public async Task<CancelStatus> CancelAsync(string code, ContactProof proof, CancellationToken ct) =>
        await store.CancelAsync(new CancelCommand(code, proof, clock.GetUtcNow()), CancellationToken.None);

    public async Task<(RescheduleStatus Status, (DateOnly, DateOnly)? Window, bool UnknownPlace)> RescheduleAsync(
        string code, ContactProof proof, SlotKey target, CancellationToken ct)
    {
        var place = await places.FindAsync(target.PlaceId, ct);
        if (place is not { Active: true })
        {
            return (RescheduleStatus.UnknownSlot, null, true);
        }
        var now = clock.GetUtcNow();
        var window = WindowOf(place, now);
        if (target.Day < window.First || target.Day > window.Last)
        {
            return (RescheduleStatus.UnknownSlot, window, false);
        }
        var status = await store.RescheduleAsync(new RescheduleCommand(code, proof, target, now), CancellationToken.None);
        return (status, null, false);
    }

    private static bool Owns(ReservationDetails found, ContactProof proof) =>
        (proof.Phone is not null && proof.Phone == found.Phone) ||
        (proof.PersonHash is not null && proof.PersonHash == found.PersonHash);

    /// <summary>What makes two requests "the same" for an idempotency key. Hashed: the key table holds no personal data.</summary>
    private static string Fingerprint(BookingRequest r)
    {
        var text = $"{r.Slot}|{r.PersonHash}|{r.Phone}|{r.Name}|{r.Language}";
        return Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)))[..32];
    }
}
