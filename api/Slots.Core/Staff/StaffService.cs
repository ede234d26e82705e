using Microsoft.Extensions.Options;
using Slots.Persons;
using Slots.Places;
using Slots.Window;

namespace Slots.Staff;

/// <summary>The site's day: its roster, the check-in at the door, and the trail of what staff did.</summary>
public sealed class StaffService(
    IStaffStore store, PlaceDirectory places, PersonIdentity persons, TimeProvider clock, IOptions<CheckInOptions> options, StaffMetrics metrics,
    Reservations.IDosePairStore pairs)
{
    /// <summary>A page of the place's day, or null when there is no such place.</summary>
    public async Task<RosterPage?> RosterAsync(RosterQuery query, CancellationToken ct)
    {
        if (await places.FindAsync(query.PlaceId, ct) is null)
        {
            return null;
        }
        return await store.RosterAsync(query, ct);
    }

    /// <summary>
    /// Checks in the booking with <paramref name="code"/> at <paramref name="placeId"/>, today, within
    /// the configured time around its start; with <paramref name="nationalIdHash"/>, only when it is
    /// the booking's person. Each refusal says why; a second check-in answers the first.
    /// </summary>
    public async Task<CheckInAnswer> CheckInAsync(int placeId, string code, PersonHashes? nationalIdHash, string by, CancellationToken ct)
    {
        var now = DateTimeOffset.FromUnixTimeSeconds(clock.GetUtcNow().ToUnixTimeSeconds()); // kept to the second, as stored
        if (await store.FindAsync(code, ct) is not { } found)
        {
            return new CheckInAnswer(CheckInStatus.NotFound);
        }
        var booking = found.Reservation;
        if (booking.Slot.PlaceId != placeId)
        {
            return new CheckInAnswer(CheckInStatus.OtherPlace);
        }
        if (await places.FindAsync(placeId, ct) is not { } place)
        {
            return new CheckInAnswer(CheckInStatus.NotFound);
        }
        if (booking.Slot.Day != LocalClock.Today(place, now))
        {
            // A pair is shown by its first code at both visits: on the second dose's day the door means that one.
            return await pairs.SecondOfAsync(code, ct) is { } second
                ? await CheckInAsync(placeId, second, nationalIdHash, by, ct)
                : new CheckInAnswer(CheckInStatus.OtherDay, StartMinute: booking.Slot.StartMinute);
        }
        switch (found.State)
        {
            case RosterState.CheckedIn:
                return new CheckInAnswer(CheckInStatus.AlreadyCheckedIn, found.At, found.By, booking.Slot.StartMinute, booking.Name);
            case RosterState.Cancelled:
                return new CheckInAnswer(CheckInStatus.Cancelled);
        }
        var starts = LocalClock.ToInstant(booking.Slot.Day, booking.Slot.StartMinute, place.TimeZone);
        if (now < starts - options.Value.Earliest)
        {
            return new CheckInAnswer(CheckInStatus.TooEarly, StartMinute: booking.Slot.StartMinute);
        }
        if (now > starts + options.Value.Latest)
        {
            return new CheckInAnswer(CheckInStatus.TooLate, StartMinute: booking.Slot.StartMinute);
        }
        if (nationalIdHash is not null && !nationalIdHash.Match(booking.PersonHash))
        {
            return new CheckInAnswer(CheckInStatus.NotThePerson);
        }
        // A late arrival checked in over a no-show is its own action in the trail: it changes what the day's counts said.
        var action = found.State == RosterState.NoShow ? AuditActions.NoShowOverride : AuditActions.CheckIn;
        var answer = await store.CheckInAsync(new CheckInCommand(code, placeId, by, now, action), ct);
        if (answer.Status == CheckInStatus.CheckedIn)
        {
            metrics.CheckedIn(placeId);
        }
        return answer with { StartMinute = booking.Slot.StartMinute, Name = booking.Name };
    }

    /// <summary>Adds a staff action to the trail.</summary>
    public Task RecordAsync(string actor, int? placeId, string action, string? target, string? reason, CancellationToken ct) =>
        store.AppendAuditAsync(new AuditEntry(0, clock.GetUtcNow(), actor, placeId, action, target, reason), ct);

    public Task<IReadOnlyList<AuditEntry>> AuditAsync(int? placeId, DateTimeOffset from, DateTimeOffset to, int limit, CancellationToken ct) =>
        store.AuditAsync(placeId, from, to, limit, ct);

    /// <summary>The national id typed at the door, as the keyed hash bookings keep; null when it is not one.</summary>
    public PersonHashes? HashOf(string nationalId) =>
        PersonIdentity.NormalizeNationalId(nationalId) is { } normalized ? persons.Hashes(normalized) : null;
}
