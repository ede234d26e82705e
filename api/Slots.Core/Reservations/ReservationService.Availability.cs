using Slots.Places;
using Slots.Window;

namespace Slots.Reservations;

/// <summary>Where a place's free slots are read: the hot days from the snapshot, later days from the disk tables.</summary>
public sealed partial class ReservationService
{
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
        var slots = await AvailabilityAsync(place, wanted.ServiceId, from, to, ct);
        return slots
            .Where(s => s.Free > 0 && s.StartsAtUnix > nowUnix)
            .OrderBy(s => Math.Abs(s.StartsAtUnix - wantedAt))
            .Take(options.Value.Alternatives)
            .OrderBy(s => s.StartsAtUnix)
            .ToList();
    }

    /// <summary>
    /// Slots of one service of a place in [from, to] with their free seats: hot days from this
    /// instance's snapshot of the hot store, later days from the disk tables. Both hold every service
    /// of the place; the one asked for is picked on read, so one entry serves every service.
    /// </summary>
    public async Task<IReadOnlyList<SlotAvailability>> AvailabilityAsync(PlaceInfo place, int serviceId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        var slots = await EveryServiceAsync(place, from, to, ct);
        return slots.All(s => s.Slot.ServiceId == serviceId) ? slots : slots.Where(s => s.Slot.ServiceId == serviceId).ToList();
    }

    /// <summary>Slots of every service of a place in [from, to], as <see cref="AvailabilityAsync"/> reads them, in one read.</summary>
    public async Task<IReadOnlyList<SlotAvailability>> EveryServiceAsync(PlaceInfo place, DateOnly from, DateOnly to, CancellationToken ct)
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
    /// Every slot of the hot store from the earliest place's today to the latest hot horizon, in (place, day, time, service)
    /// order, streamed from one query and not cached; null when the store cannot read them so.
    /// </summary>
    public IAsyncEnumerable<SlotAvailability>? EveryPlace(IReadOnlyCollection<PlaceInfo> of) =>
        EveryHotDay(of) is var (from, to) ? store.EveryPlace(from, to) : null;

    /// <summary>
    /// The slots of the places' hot days whose digests differ from <paramref name="known"/> (see
    /// <see cref="IReservationStore.ChangedDays"/>), over the same days as <see cref="EveryPlace"/>; null when the store cannot.
    /// </summary>
    public IAsyncEnumerable<ChangedSlot>? ChangedDays(IReadOnlyCollection<PlaceInfo> of, IReadOnlyList<DayDigest> known) =>
        EveryHotDay(of) is var (from, to) ? store.ChangedDays(from, to, known) : null;

    /// <summary>
    /// Holds the first week of every active place in the availability snapshot, read as one stream, once per instance
    /// (nothing when the store cannot stream every place): a fresh instance answers each place's first reads from memory,
    /// not with a query each among the bookings of a stampede.
    /// </summary>
    public async Task HoldFirstWeeksAsync(PlaceDirectory places, CancellationToken ct)
    {
        if (snapshot.Held)
        {
            return;   // readiness asks every second: once held, nothing to list or read
        }
        var days = new Dictionary<int, (DateOnly HotFrom, DateOnly HotTo, DateOnly Last)>();
        foreach (var place in (await places.AllAsync(ct)).Where(p => p.Active))
        {
            var (hotFrom, hotTo) = HotDays(place);
            var last = hotFrom.AddDays(6) < hotTo ? hotFrom.AddDays(6) : hotTo;
            if (hotFrom <= last)
            {
                days[place.Id] = (hotFrom, hotTo, last);
            }
        }
        if (days.Count > 0 && store.EveryPlace(days.Values.Min(d => d.HotFrom), days.Values.Max(d => d.Last)) is { } rows)
        {
            // The read is shared by every check waiting for it; each waits only as long as it may.
            await snapshot.HoldAsync(rows, days).WaitAsync(ct);
        }
    }

    /// <summary>From the earliest place's today to the latest hot horizon; null when there are no places or no hot days.</summary>
    private (DateOnly From, DateOnly To)? EveryHotDay(IReadOnlyCollection<PlaceInfo> of)
    {
        if (of.Count == 0)
        {
            return null;
        }
        var from = of.Min(p => HotDays(p).From);
        var to = of.Max(p => HotDays(p).To);
        return from <= to ? (from, to) : null;
    }

    /// <summary>Whether every day of [from, to] of the place is hot (read by <see cref="EveryPlace"/>) rather than on disk.</summary>
    public bool IsHot(PlaceInfo place, DateOnly from, DateOnly to) => HotDays(place) is var (hotFrom, hotTo) && from >= hotFrom && to <= hotTo;

    /// <summary>
    /// The snapshot's stamp for [from, to] when the whole range is served from it (hot days only),
    /// else null: an answer built for the same range under the same stamp is still true.
    /// </summary>
    public SnapshotStamp? AvailabilityStamp(PlaceInfo place, DateOnly to) =>
        HotDays(place) is var (hotFrom, hotTo) && to <= hotTo ? snapshot.Stamp(place.Id, hotFrom, hotTo, to) : null;

    /// <summary>The place's days the snapshot holds: today in its time zone up to the cached horizon.</summary>
    private (DateOnly From, DateOnly To) HotDays(PlaceInfo place) =>
        (LocalClock.Today(place, clock.GetUtcNow()), place.HotUntil.AddDays(-1));
}
