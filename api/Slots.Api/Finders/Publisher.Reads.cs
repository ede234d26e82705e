using Slots.Catalogue;
using Slots.Places;
using Slots.Reservations;
using Slots.Window;

namespace Slots.Api.Finders;

/// <summary>How a publication reads the places (see <see cref="Publisher"/>): what changed since the one before, where it can.</summary>
internal sealed partial class Publisher
{
    /// <summary>
    /// Every this-many publications read every place's days whatever their digests say: a digest is a sum of 64-bit hashes,
    /// and a collision would keep a change out of the files until the day changes again. An hour at the shipped refresh.
    /// </summary>
    private const int FullReadEvery = 60;

    /// <summary>Each place's hot days' digests as of the slots the publication holds (by place, then day).</summary>
    private sealed record Digests(Dictionary<int, Dictionary<DateOnly, long>> Places);

    /// <summary>
    /// The active places as they are now, from the hot store in one query where it can: the days whose digests differ from
    /// the ones the publication before kept come with their slots, and every other day of a place is the one published
    /// (less the slots that have started since). A store without digests streams every place's slots (one query); a place
    /// that query does not cover (cold days, or a service it was not published with) stays null, to be read alone.
    /// </summary>
    private async Task<(PublishedPlace?[] Read, Digests Digests)> ReadHotAsync(List<PlaceInfo> active,
        IReadOnlyList<ServiceInfo>[] offered, State? state, long number, long floorMs, CancellationToken ct)
    {
        var read = new PublishedPlace?[active.Count];
        var digests = new Digests([]);
        var index = active.Select((p, i) => (p.Id, i)).ToDictionary(x => x.Id, x => x.i);
        var kept = state is null || number % FullReadEvery == 0 ? new Digests([]) : state.Digests;
        var known = active.SelectMany(p => kept.Places.TryGetValue(p.Id, out var days)
            ? days.Select(d => new DayDigest(p.Id, d.Key, d.Value))
            : []).ToList();
        var changed = reservations.ChangedDays(active, known);
        var stream = changed ?? (reservations.EveryPlace(active) is { } every ? Undigested(every) : null);
        if (stream is null)
        {
            return (read, digests);
        }
        // Place after place: each one is made as its rows end.
        var rows = new List<SlotAvailability>();
        var days = new Dictionary<DateOnly, long?>();
        var at = -1;
        await foreach (var row in stream.WithCancellation(ct))
        {
            var i = index.GetValueOrDefault(row.PlaceId, -1);
            if (i != at && at >= 0)
            {
                read[at] = Place(at);
                rows.Clear();
                days.Clear();
            }
            at = i;
            if (i >= 0)
            {
                days[row.Day] = row.Slot is null ? null : row.Digest;
                if (row.Slot is { } slot)
                {
                    rows.Add(slot);
                }
            }
        }
        if (at >= 0)
        {
            read[at] = Place(at);
        }
        rows.Clear();
        days.Clear();
        for (var i = 0; changed is not null && i < active.Count; i++)
        {
            // No day of the place changed (or it has no hot seats at all).
            read[i] ??= Place(i);
        }
        return (read, digests);

        PublishedPlace? Place(int i) => changed is not null
            ? Changed(active[i], offered[i], rows, days, state, kept, digests, floorMs)
            : FromRows(active[i], offered[i], rows, state, floorMs);
    }

    /// <summary>The rows of a store without digests as changed rows (every day read whole, none digested).</summary>
    private static async IAsyncEnumerable<ChangedSlot> Undigested(IAsyncEnumerable<SlotAvailability> every)
    {
        await foreach (var slot in every)
        {
            yield return new ChangedSlot(slot.Slot.PlaceId, slot.Slot.Day, 0, slot);
        }
    }

    /// <summary>
    /// The place from the days that changed (<paramref name="days"/>: each day's digest now, null when its seats are gone, with
    /// their slots in <paramref name="rows"/>) and, for every other day, what the publication before holds of it. Null when
    /// that cannot be told so: the place's days reach past its hot horizon, or a day it holds was not published (the place is
    /// new, or offers a service it was not published with); it is then read alone and its digests are learnt next time.
    /// </summary>
    private PublishedPlace? Changed(PlaceInfo place, IReadOnlyList<ServiceInfo> offered, List<SlotAvailability> rows,
        Dictionary<DateOnly, long?> days, State? state, Digests kept, Digests digests, long floorMs)
    {
        var (today, last) = PublishedDays(place);
        if (!reservations.IsHot(place, today, last))
        {
            return null;
        }
        var previous = state?.Places.GetValueOrDefault(place.Id);
        var before = kept.Places.GetValueOrDefault(place.Id);
        var now = new Dictionary<DateOnly, long>();
        var held = false;
        for (var day = today; day <= last; day = day.AddDays(1))
        {
            if (days.TryGetValue(day, out var digest))
            {
                if (digest is { } value)
                {
                    now[day] = value;
                }
            }
            else if (before?.TryGetValue(day, out var value) == true)
            {
                now[day] = value;
                held = true;
            }
        }
        if (held && (previous is null || !Publishes(previous, offered)))
        {
            return null;
        }
        digests.Places[place.Id] = now;
        var nowUnix = clock.GetUtcNow().ToUnixTimeSeconds();
        if (days.Count == 0 && previous is not null && PublishedPlace.SameLocation(previous.Place, place) && SameSchedules(previous, offered)
            && previous.Slots.All(s => s.StartsAtUnix > nowUnix && s.Day >= today.DayNumber && s.Day <= last.DayNumber))
        {
            // Nothing about the place changed: the publication before holds it as it is (the same one where the directory's
            // copy of the place is equal: its region's files may then be kept whole).
            return previous.Place == place ? previous : previous with { Place = place };
        }
        var slots = rows.Where(s => s.Slot.Day >= today && s.Slot.Day <= last).ToList();
        if (held)
        {
            slots.AddRange(Held(previous!, today, last, days));
            slots.Sort(static (a, b) => (a.Slot.Day, a.Slot.StartMinute, a.Slot.ServiceId).CompareTo((b.Slot.Day, b.Slot.StartMinute, b.Slot.ServiceId)));
        }
        return Next(place, offered, slots, state, floorMs);
    }

    /// <summary>The published slots of the place's days in [today, last] that did not change, as slots read again.</summary>
    private static IEnumerable<SlotAvailability> Held(PublishedPlace previous, DateOnly today, DateOnly last, Dictionary<DateOnly, long?> changed)
    {
        foreach (var schedule in previous.Schedules)
        {
            for (var i = schedule.First; i < schedule.First + schedule.Count; i++)
            {
                var s = previous.Slots[i];
                if (s.LocalDay >= today && s.LocalDay <= last && !changed.ContainsKey(s.LocalDay))
                {
                    yield return new SlotAvailability(new SlotKey(previous.Place.Id, s.LocalDay, s.StartMinute, schedule.ServiceId), s.Minutes,
                        s.Capacity, s.Free, s.StartsAtUnix);
                }
            }
        }
    }

    /// <summary>Whether the publication holds every service the place offers now (so every slot of its days but the started).</summary>
    private static bool Publishes(PublishedPlace previous, IReadOnlyList<ServiceInfo> offered) =>
        offered.All(o => previous.Schedules.Any(s => s.ServiceId == o.Id));

    private static bool SameSchedules(PublishedPlace previous, IReadOnlyList<ServiceInfo> offered) =>
        previous.Schedules.Length == offered.Count
        && previous.Schedules.Zip(offered).All(x => x.First.ServiceId == x.Second.Id && x.First.Code == x.Second.Code && x.First.Name == x.Second.NameEn);

    /// <summary>The place from its rows of the one read of every place, when they cover its days; else null (read it alone).</summary>
    private PublishedPlace? FromRows(PlaceInfo place, IReadOnlyList<ServiceInfo> offered, List<SlotAvailability> rows, State? state, long floorMs)
    {
        var (today, last) = PublishedDays(place);
        if (!reservations.IsHot(place, today, last))
        {
            return null;
        }
        return Next(place, offered, rows.Where(s => s.Slot.Day >= today && s.Slot.Day <= last), state, floorMs);
    }

    private async Task<PublishedPlace> ReadAsync(PlaceInfo place, IReadOnlyList<ServiceInfo> offered, State? state, long floorMs, CancellationToken ct)
    {
        var (today, last) = PublishedDays(place);
        // One read for every service (a later day costs one disk query, not one per service).
        var every = await reservations.EveryServiceAsync(place, today, last, ct);
        return Next(place, offered, every, state, floorMs);
    }

    /// <summary>The days published of a place: today in its time zone and the <see cref="FinderOptions.Days"/> - 1 after it.</summary>
    private (DateOnly Today, DateOnly Last) PublishedDays(PlaceInfo place)
    {
        var today = LocalClock.Today(place, clock.GetUtcNow());
        return (today, today.AddDays(options.Value.Days - 1));
    }

    /// <summary>
    /// The place as read now against what the last publication held of it, without the slots that have started (they
    /// cannot be booked any more, as the availability endpoint says). The rows come in start order; PublishedPlace.Next
    /// takes them service by service in the order offered, and leaves out a service the place no longer offers.
    /// </summary>
    private PublishedPlace Next(PlaceInfo place, IReadOnlyList<ServiceInfo> offered, IEnumerable<SlotAvailability> slots, State? state, long floorMs)
    {
        var read = clock.GetUtcNow();
        var now = read.ToUnixTimeSeconds();
        var open = slots.Where(s => s.StartsAtUnix > now).ToList();
        return PublishedPlace.Next(state?.Places.GetValueOrDefault(place.Id), place, offered, open, Math.Max(read.ToUnixTimeMilliseconds(), floorMs));
    }
}
