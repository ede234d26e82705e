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

/// <summary>What a place looked like in the last publication: its Location's fields, when they last changed, and its slots.</summary>
internal sealed record PublishedPlace(PlaceInfo Place, long LocationUpdatedMs, PublishedSlot[] Slots)
{
    /// <summary>
    /// The place as read now, each resource keeping the lastUpdated of the publication that last saw it differ: a Slot
    /// whose status or capacity is as before keeps its time, so <c>_since</c> leaves it out.
    /// </summary>
    public static PublishedPlace Next(PublishedPlace? previous, PlaceInfo place, IReadOnlyList<SlotAvailability> slots, long readMs)
    {
        var locationUpdated = previous is not null && SameLocation(previous.Place, place) ? previous.LocationUpdatedMs : readMs;
        var seen = previous?.Slots ?? [];
        var next = new PublishedSlot[slots.Count];
        var j = 0;
        for (var i = 0; i < slots.Count; i++)
        {
            var s = slots[i];
            var now = new PublishedSlot(s.Slot.Day.DayNumber, (short)s.Slot.StartMinute, (short)s.Minutes, s.Capacity, s.Free, s.StartsAtUnix, readMs);
            // Both lists are in start order: walk the previous one alongside.
            while (j < seen.Length && Before(seen[j], now))
            {
                j++;
            }
            next[i] = j < seen.Length && seen[j].SameAs(now) ? now with { UpdatedMs = seen[j].UpdatedMs } : now;
        }
        return new PublishedPlace(place, locationUpdated, next);
    }

    private static bool Before(PublishedSlot a, PublishedSlot b) =>
        a.Day < b.Day || (a.Day == b.Day && a.StartMinute < b.StartMinute);

    private static bool SameLocation(PlaceInfo a, PlaceInfo b) =>
        a.Name == b.Name && a.Address == b.Address && a.Region == b.Region && a.TimeZone.Id == b.TimeZone.Id;
}
