using System.Collections.Concurrent;
using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Options;
using Slots.Places;
using Slots.Window;

namespace Slots.Reservations;

/// <summary>
/// The reservation use case in front of the store: the checks that need no database, the
/// in-flight coalescing of repeats with one idempotency key, the alternatives offered when
/// a slot is full, and the choice of path: days before the place's horizon go to the hot store,
/// days from it on to the cold path (which hands a call back when the day has meanwhile become hot).
/// </summary>
public sealed class ReservationService(
    IReservationStore store,
    IColdReservationStore cold,
    AvailabilitySnapshot snapshot,
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
        var today = LocalClock.Today(place, now);
        if (request.Slot.Day < today)
        {
            return new BookingAnswer(ReservationStatus.OutsideWindow, Window: WindowOf(place, now), Place: place);
        }
        var command = new ReserveCommand(request.Slot, request.PersonHash, request.Phone, request.Name, request.Language,
            ConfirmationCode.New(), key, fingerprint, now);
        var result = await ReserveOnPathAsync(place, command, ct);
        if (result is not { } outcome)
        {
            return new BookingAnswer(ReservationStatus.KeyReused, Place: place);
        }
        if (outcome.Status == ReservationStatus.Reserved && !outcome.Replayed)
        {
            snapshot.Taken(request.Slot);
        }
        else if (outcome.Status == ReservationStatus.SlotFull)
        {
            snapshot.Full(request.Slot);
        }
        // The database refused the seat (a closed place's slots have none, in the same operation as
        // the seat); the directory, already read, says why. It is not asked before the seat: another
        // instance's copy may still say closed after a reopen, and the seat must win then.
        if (place.Closed && outcome.Status is ReservationStatus.SlotFull or ReservationStatus.UnknownSlot)
        {
            return new BookingAnswer(ReservationStatus.PlaceClosed, Place: place);
        }
        var alternatives = outcome.Status == ReservationStatus.SlotFull
            ? await NearestFreeAsync(place, request.Slot, now, ct)
            : null;
        var minutes = outcome.Status != ReservationStatus.Reserved ? 0
            : outcome.Minutes > 0 ? outcome.Minutes
            : await MinutesAsync(place, request.Slot, outcome.Code!, ct);
        return new BookingAnswer(outcome.Status, outcome.Code, outcome.Replayed, alternatives, Place: place, Minutes: minutes);
    }

    private async Task<ReserveResult?> ReserveOnPathAsync(PlaceInfo place, ReserveCommand command, CancellationToken ct)
    {
        if (command.Slot.Day < place.HotUntil)
        {
            return await store.ReserveAsync(command, ct);
        }
        var coldAnswer = await cold.ReserveAsync(command, ct);
        return coldAnswer.Route == ColdRoute.NowHot ? await store.ReserveAsync(command, ct) : coldAnswer.Value;
    }

    /// <summary>
    /// The booked slot's length when the store's answer did not carry it (a replay on SQLite, the
    /// cold path, a replay on SQL Server of a booking gone since): one read by code. A replay of a booking cancelled since finds no
    /// reservation and reads the slot instead.
    /// </summary>
    private async Task<int> MinutesAsync(PlaceInfo place, SlotKey slot, string code, CancellationToken ct)
    {
        if ((await store.FindAsync(code, ct) ?? await cold.FindAsync(code, ct)) is { } held)
        {
            return held.Minutes;
        }
        var slots = await AvailabilityAsync(place, slot.Day, slot.Day, ct);
        return slots.FirstOrDefault(s => s.Slot == slot).Minutes;
    }

    /// <summary>The hot days of a place: today and the next Days-1 days in its time zone. Later days take the cold path.</summary>
    public (DateOnly First, DateOnly Last) WindowOf(PlaceInfo place, DateTimeOffset now)
    {
        var today = LocalClock.Today(place, now);
        return (today, today.AddDays(window.Value.Days - 1));
    }

    /// <summary>Free slots at the same place closest in time to the one that was full.</summary>
    private async Task<IReadOnlyList<SlotAvailability>> NearestFreeAsync(PlaceInfo place, SlotKey wanted, DateTimeOffset now, CancellationToken ct)
    {
        var today = LocalClock.Today(place, now);
        var from = wanted.Day.AddDays(-2) < today ? today : wanted.Day.AddDays(-2);
        var to = wanted.Day.AddDays(3);
        var wantedAt = LocalClock.ToInstant(wanted.Day, wanted.StartMinute, place.TimeZone).ToUnixTimeSeconds();
        var nowUnix = now.ToUnixTimeSeconds();
        var slots = await AvailabilityAsync(place, from, to, ct);
        return slots
            .Where(s => s.Free > 0 && s.StartsAtUnix > nowUnix)
            .OrderBy(s => Math.Abs(s.StartsAtUnix - wantedAt))
            .Take(options.Value.Alternatives)
            .OrderBy(s => s.StartsAtUnix)
            .ToList();
    }

    /// <summary>
    /// Slots of a place in [from, to] with their free seats: hot days from this instance's
    /// snapshot of the hot store, later days from the disk tables.
    /// </summary>
    public async Task<IReadOnlyList<SlotAvailability>> AvailabilityAsync(PlaceInfo place, DateOnly from, DateOnly to, CancellationToken ct)
    {
        var (hotFrom, hotTo) = HotDays(place);
        if (to <= hotTo)
        {
            return await snapshot.GetAsync(place.Id, from, to, hotFrom, hotTo, ct);
        }
        // The stored horizon, not the cached one, splits the range: every day is counted once.
        var (horizon, coldSlots) = await cold.AvailabilityAsync(place.Id, from, to, ct);
        if (from >= horizon)
        {
            return coldSlots;
        }
        var hot = await snapshot.GetAsync(place.Id, from, horizon.AddDays(-1) < to ? horizon.AddDays(-1) : to, hotFrom, horizon.AddDays(-1), ct);
        return [.. hot, .. coldSlots];
    }

    /// <summary>
    /// The snapshot's stamp for [from, to] when the whole range is served from it (hot days only),
    /// else null: an answer built for the same range under the same stamp is still true.
    /// </summary>
    public SnapshotStamp? AvailabilityStamp(PlaceInfo place, DateOnly to) =>
        HotDays(place) is var (hotFrom, hotTo) && to <= hotTo ? snapshot.Stamp(place.Id, hotFrom, hotTo) : null;

    /// <summary>The place's days the snapshot holds: today in its time zone up to the cached horizon.</summary>
    private (DateOnly From, DateOnly To) HotDays(PlaceInfo place) =>
        (LocalClock.Today(place, clock.GetUtcNow()), place.HotUntil.AddDays(-1));

    public async Task<ReservationDetails?> FindAsync(string code, ContactProof proof, CancellationToken ct)
    {
        var found = await store.FindAsync(code, ct) ?? await cold.FindAsync(code, ct);
        return found is not null && Owns(found, proof) ? found : null;
    }

    /// <summary>Whether the reservation with this code was cancelled, asked by its owner (the proof must match it).</summary>
    public Task<bool> WasCancelledAsync(string code, ContactProof proof, CancellationToken ct) =>
        cold.WasCancelledAsync(new CancelCommand(code, proof, clock.GetUtcNow()), ct);

    public async Task<CancelStatus> CancelAsync(string code, ContactProof proof, CancellationToken ct)
    {
        var command = new CancelCommand(code, proof, clock.GetUtcNow());
        // Not the caller's token: once started, a cancellation completes even if this client has gone.
        var status = await store.CancelAsync(command, CancellationToken.None);
        if (status == CancelStatus.NotFound)
        {
            var coldAnswer = await cold.CancelAsync(command, CancellationToken.None);
            status = coldAnswer.Route == ColdRoute.NowHot ? await store.CancelAsync(command, CancellationToken.None) : coldAnswer.Value;
        }
        if (status == CancelStatus.NotFound && await cold.WasCancelledAsync(command, CancellationToken.None))
        {
            // The same cancel again (DELETE is idempotent): the first took effect, this one changes nothing.
            return CancelStatus.Cancelled;
        }
        if (status == CancelStatus.Cancelled)
        {
            snapshot.Forget(); // a seat came back, at a slot this answer does not name
        }
        return status;
    }

    public async Task<RescheduleAnswer> RescheduleAsync(string code, ContactProof proof, SlotKey target, CancellationToken ct)
    {
        var place = await places.FindAsync(target.PlaceId, ct);
        if (place is not { Active: true })
        {
            return new RescheduleAnswer(RescheduleStatus.UnknownPlace);
        }
        var now = clock.GetUtcNow();
        if (target.Day < LocalClock.Today(place, now))
        {
            return new RescheduleAnswer(RescheduleStatus.OutsideWindow, place, Window: WindowOf(place, now));
        }
        var status = await RescheduleOnPathAsync(new RescheduleCommand(code, proof, target, now));
        if (status == RescheduleStatus.Rescheduled)
        {
            snapshot.Forget(); // a seat moved from a slot this answer does not name
        }
        else if (status == RescheduleStatus.SlotFull)
        {
            snapshot.Full(target);
        }
        return status switch
        {
            // Cancelled between the move and this read: nothing left to show.
            RescheduleStatus.Rescheduled => await FindAsync(code, proof, ct) is { } moved
                ? new RescheduleAnswer(status, place, Reservation: moved)
                : new RescheduleAnswer(RescheduleStatus.NotFound, place),
            RescheduleStatus.SlotFull => new RescheduleAnswer(status, place, Alternatives: await NearestFreeAsync(place, target, now, ct)),
            _ => new RescheduleAnswer(status, place),
        };
    }

    /// <summary>
    /// Hot to hot through the hot store, cold to cold through the cold path. A move across the
    /// horizon (one side hot, the other cold) is refused: no single atomic operation spans both.
    /// </summary>
    private async Task<RescheduleStatus> RescheduleOnPathAsync(RescheduleCommand command)
    {
        if (await store.FindAsync(command.Code, CancellationToken.None) is not null)
        {
            var targetHorizon = await cold.HorizonAsync(command.Target.PlaceId, CancellationToken.None);
            return command.Target.Day < targetHorizon
                ? await store.RescheduleAsync(command, CancellationToken.None)
                : RescheduleStatus.AcrossWindow;
        }
        var coldAnswer = await cold.RescheduleAsync(command, CancellationToken.None);
        return coldAnswer.Route switch
        {
            ColdRoute.NowHot => await store.RescheduleAsync(command, CancellationToken.None),
            ColdRoute.AcrossWindow => RescheduleStatus.AcrossWindow,
            _ => coldAnswer.Value,
        };
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
