namespace Slots.Reservations;

/// <summary>
/// One day's seats of a place in the hot store, reduced to numbers that change whenever an availability answer for that day
/// could: how many seats there are and how many are free, and each of those as a sum of a weight per (time, service), so that
/// a seat taken at one time and another freed at another time of the same day still change the day's figures.
/// </summary>
public readonly record struct DayDigest(int PlaceId, DateOnly Day, int Seats, int Free, long SeatsWeight, long FreeWeight);

/// <summary>
/// The hot store's <see cref="DayDigest"/>s of a range of days, read in one query: a reader that kept what it built from a
/// place's days can tell from them, without reading the slots, whether the place's availability changed since.
/// </summary>
public sealed class AvailabilityDigests
{
    private readonly Dictionary<(int PlaceId, int Day), DayDigest> _days;

    public AvailabilityDigests(DateOnly from, DateOnly to, IEnumerable<DayDigest> days)
    {
        From = from;
        To = to;
        _days = days.ToDictionary(d => (d.PlaceId, d.Day.DayNumber));
    }

    /// <summary>The days read, the same for every place.</summary>
    public DateOnly From { get; }

    public DateOnly To { get; }

    /// <summary>
    /// One number for the place's days [from, to], which must lie inside the range read: equal for two reads exactly when
    /// (barring a collision of the weighted sums) no seat of those days was added, removed, taken or freed between them.
    /// The days themselves are part of it, so a window that moved by a day differs too.
    /// </summary>
    public int Of(int placeId, DateOnly from, DateOnly to)
    {
        if (from < From || to > To)
        {
            throw new ArgumentOutOfRangeException(nameof(to), "The days asked for lie outside the days read.");
        }
        var hash = new HashCode();
        hash.Add(from.DayNumber);
        hash.Add(to.DayNumber);
        for (var day = from.DayNumber; day <= to.DayNumber; day++)
        {
            if (_days.TryGetValue((placeId, day), out var d))
            {
                hash.Add(day);
                hash.Add(d.Seats);
                hash.Add(d.Free);
                hash.Add(d.SeatsWeight);
                hash.Add(d.FreeWeight);
            }
        }
        return hash.ToHashCode();
    }
}
