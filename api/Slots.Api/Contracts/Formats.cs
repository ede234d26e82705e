using System.Globalization;
using Slots.Reservations;

namespace Slots.Api.Contracts;

/// <summary>The wire formats of days and times: ISO 8601 "yyyy-MM-dd" and "HH:mm".</summary>
internal static class Formats
{
    public static string Day(DateOnly day) => day.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    public static string Time(int minuteOfDay) => $"{minuteOfDay / 60:00}:{minuteOfDay % 60:00}";

    public static bool TryDay(string? text, out DateOnly day) =>
        DateOnly.TryParseExact(text, "yyyy-MM-dd", CultureInfo.InvariantCulture, DateTimeStyles.None, out day);

    public static bool TryTime(string? text, out TimeOnly time) =>
        TimeOnly.TryParseExact(text, "HH:mm", CultureInfo.InvariantCulture, DateTimeStyles.None, out time);

    public static AlternativeDto Alternative(SlotAvailability slot) =>
        new(slot.Slot.PlaceId, Day(slot.Slot.Day), Time(slot.Slot.StartMinute), slot.Free);
}
