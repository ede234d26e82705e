using System.Globalization;
using Slots.Reservations;

namespace Slots.Api.Contracts;

/// <summary>The wire formats of days and times: ISO 8601 "yyyy-MM-dd" and "HH:mm".</summary>
internal static class Formats
{
    public static string Day(DateOnly day) => day.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    public static string Time(int minuteOfDay) => $"{minuteOfDay / 60:00}:{minuteOfDay % 60:00}";

    /// <summary>
    /// Days outside these bounds mean nothing to a booking system, and near DateOnly's own ends a
    /// week's range or a place's UTC offset would overflow (9999-12-31 at UTC-12 is year 10000).
    /// </summary>
    public static readonly DateOnly FirstDay = new(2000, 1, 1);
    public static readonly DateOnly LastDay = new(2999, 12, 31);

    /// <summary>What every day field expects, for its error message.</summary>
    public const string DayFormat = "yyyy-MM-dd, from 2000-01-01 to 2999-12-31";

    public static bool TryDay(string? text, out DateOnly day)
    {
        if (DateOnly.TryParseExact(text, "yyyy-MM-dd", CultureInfo.InvariantCulture, DateTimeStyles.None, out day)
            && day >= FirstDay && day <= LastDay)
        {
            return true;
        }
        day = FirstDay; // callers go on to check the other fields with it; it must not be a day that overflows
        return false;
    }

    /// <summary>
    /// A whole number from a query string, digits only. Query numbers are bound as text and read
    /// here so a bad one is a 400 naming its field; the framework's binder answers a bare 400 (a
    /// 500 in Development, where it throws) that names nothing.
    /// </summary>
    public static bool TryWhole(string text, out int value) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value);

    public static bool TryTime(string? text, out TimeOnly time) =>
        TimeOnly.TryParseExact(text, "HH:mm", CultureInfo.InvariantCulture, DateTimeStyles.None, out time);

    public static AlternativeDto Alternative(SlotAvailability slot) =>
        new(slot.Slot.PlaceId, Day(slot.Slot.Day), Time(slot.Slot.StartMinute), slot.Free);
}
