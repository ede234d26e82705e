using Slots.Places;

namespace Slots.Window;

/// <summary>Converts between instants and a place's local days and times, daylight saving included.</summary>
public static class LocalClock
{
    public static DateOnly Today(TimeZoneInfo zone, DateTimeOffset now) =>
        DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(now, zone).DateTime);

    public static DateOnly Today(PlaceInfo place, DateTimeOffset now) => Today(place.TimeZone, now);

    /// <summary>
    /// The instant a local wall-clock time happens. A time skipped by a spring-forward gap is
    /// moved past the gap; a time that happens twice in autumn takes its first occurrence.
    /// </summary>
    public static DateTimeOffset ToInstant(DateOnly day, int minuteOfDay, TimeZoneInfo zone)
    {
        var local = day.ToDateTime(TimeOnly.MinValue, DateTimeKind.Unspecified).AddMinutes(minuteOfDay);
        if (zone.IsInvalidTime(local))
        {
            var rule = zone.GetAdjustmentRules().FirstOrDefault(r => r.DateStart <= local && r.DateEnd >= local);
            local = local.Add(rule?.DaylightDelta ?? TimeSpan.FromHours(1));
        }
        var offset = zone.IsAmbiguousTime(local)
            ? zone.GetAmbiguousTimeOffsets(local).Max()
            : zone.GetUtcOffset(local);
        return new DateTimeOffset(local, offset);
    }
}
