using Slots.Catalogue;
using Slots.Places;
using Slots.Reservations;

namespace Slots.Api.Finders;

/// <summary>
/// One published slot, kept small (32 bytes) because a publication holds every slot of every place at once:
/// 1,000 places × 30 days × 34 times is about a million of them.
/// </summary>
/// <param name="UpdatedMs">When this state was first read (Unix milliseconds): the Slot's meta.lastUpdated.</param>
internal readonly record struct PublishedSlot(int Day, short StartMinute, short Minutes, int Capacity, int Free, long StartsAtUnix, long UpdatedMs)
{
    public DateOnly LocalDay => DateOnly.FromDayNumber(Day);

    public bool IsFree => Free > 0;

    /// <summary>
    /// The capacity extension counts identical Slots folded into one: the free seats while any is free, else every seat
    /// (all of them busy). A partly booked slot is published as its free part only; see README (vaccine finders).
    /// </summary>
    public int PublishedCapacity => IsFree ? Free : Capacity;

    public bool SameAs(PublishedSlot other) =>
        Day == other.Day && StartMinute == other.StartMinute && Minutes == other.Minutes && StartsAtUnix == other.StartsAtUnix
        && IsFree == other.IsFree && PublishedCapacity == other.PublishedCapacity;
}

/// <summary>
/// One of a place's services as last published: its Schedule's fields, when they last changed, and where its slots lie
/// in the place's slot array ([First, First + Count), in start order).
/// </summary>
internal sealed record PublishedSchedule(int ServiceId, string Code, string Name, long UpdatedMs, int First, int Count);

/// <summary>
/// What a place looked like in the last publication: its Location's fields and when they last changed, a Schedule per
/// service it offers, and the slots of all of them in one array (service by service, each in start order), so that a
/// region's slots are still ordered by two ints each while its file is written.
/// </summary>
/// <param name="Lines">
/// Per slot, where its line lies in its region's Slot file (<see cref="Line"/>): in the publication that wrote it once
/// published; while the next one is made, in the file before (0: none there, the slot is serialized anew).
/// </param>
internal sealed record PublishedPlace(PlaceInfo Place, long LocationUpdatedMs, PublishedSchedule[] Schedules, PublishedSlot[] Slots,
    long[] Lines)
{
    /// <summary>The schedule whose range holds slot <paramref name="index"/>.</summary>
    public PublishedSchedule ScheduleOf(int index)
    {
        foreach (var schedule in Schedules)
        {
            if (index < schedule.First + schedule.Count)
            {
                return schedule;
            }
        }
        throw new ArgumentOutOfRangeException(nameof(index));
    }

    /// <summary>
    /// The place as read now, each resource keeping the lastUpdated of the publication that last saw it differ: a Slot
    /// whose status or capacity is as before keeps its time and its line, so <c>_since</c> leaves it out and the next file
    /// copies its bytes. Only the services the place offers are published; a slot of another service (one the place stopped
    /// offering) is left out. A place that moved to another region or time zone has every slot written anew (another file,
    /// other offsets), and so has a service whose code changed (other ids).
    /// </summary>
    public static PublishedPlace Next(PublishedPlace? previous, PlaceInfo place, IReadOnlyList<ServiceInfo> services,
        IReadOnlyList<SlotAvailability> slots, long readMs)
    {
        var locationUpdated = previous is not null && SameLocation(previous.Place, place) ? previous.LocationUpdatedMs : readMs;
        var sameFile = previous is not null && previous.Place.Region == place.Region && previous.Place.TimeZone.Id == place.TimeZone.Id;
        var schedules = new PublishedSchedule[services.Count];
        var next = new List<PublishedSlot>(slots.Count);
        var lines = new List<long>(slots.Count);
        for (var k = 0; k < services.Count; k++)
        {
            var service = services[k];
            var before = previous?.Schedules.FirstOrDefault(s => s.ServiceId == service.Id);
            var reuse = sameFile && before is not null && before.Code == service.Code;
            var seen = reuse ? previous!.Slots.AsSpan(before!.First, before.Count) : [];
            var seenLines = reuse ? previous!.Lines.AsSpan(before!.First, before.Count) : [];
            var first = next.Count;
            var j = 0;
            foreach (var s in slots)
            {
                if (s.Slot.ServiceId != service.Id)
                {
                    continue;
                }
                var now = new PublishedSlot(s.Slot.Day.DayNumber, (short)s.Slot.StartMinute, (short)s.Minutes, s.Capacity, s.Free, s.StartsAtUnix, readMs);
                // Both lists are in start order: walk the previous one alongside.
                while (j < seen.Length && Before(seen[j], now))
                {
                    j++;
                }
                var same = j < seen.Length && seen[j].SameAs(now);
                next.Add(same ? now with { UpdatedMs = seen[j].UpdatedMs } : now);
                lines.Add(same ? seenLines[j] : 0);
            }
            var updated = before is not null && before.Code == service.Code && before.Name == service.NameEn ? before.UpdatedMs : readMs;
            schedules[k] = new PublishedSchedule(service.Id, service.Code, service.NameEn, updated, first, next.Count - first);
        }
        return new PublishedPlace(place, locationUpdated, schedules, [.. next], [.. lines]);
    }

    private static bool Before(PublishedSlot a, PublishedSlot b) =>
        a.Day < b.Day || (a.Day == b.Day && a.StartMinute < b.StartMinute);

    public static bool SameLocation(PlaceInfo a, PlaceInfo b) =>
        a.Name == b.Name && a.Address == b.Address && a.Region == b.Region && a.TimeZone.Id == b.TimeZone.Id;
}

/// <summary>
/// Where a Slot's line lies, packed in a long: in its region's base file or in the latest publication's own file (1 bit), its
/// offset there (42 bits) and its length with the newline (20 bits). 0 is no line.
/// </summary>
internal static class Line
{
    private const int LengthBits = 20;
    private const long BaseBit = 1L << 62;

    public static long Pack(long offset, int length, bool inBase) =>
        length is > 0 and < (1 << LengthBits) && offset is >= 0 and < (1L << (62 - LengthBits))
            ? (inBase ? BaseBit : 0) | (offset << LengthBits) | (uint)length
            : throw new ArgumentOutOfRangeException(nameof(length), "An NDJSON line must be 1 byte to 1 MB, within the first 4 TB.");

    public static bool InBase(long line) => (line & BaseBit) != 0;

    public static long Offset(long line) => (line & (BaseBit - 1)) >>> LengthBits;

    public static int Length(long line) => (int)(line & ((1 << LengthBits) - 1));
}
