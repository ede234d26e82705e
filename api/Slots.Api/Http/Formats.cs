using System.Globalization;

namespace Slots.Api.Http;

/// <summary>The wire formats of days and times: ISO 8601 "yyyy-MM-dd" and "HH:mm".</summary>
internal static class Formats
{
    public static string Day(DateOnly day) => day.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    /// <summary>An instant in UTC to the second, as admin answers give one: 2026-12-01T07:00:00Z.</summary>
    public static string Instant(DateTimeOffset at) => at.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", CultureInfo.InvariantCulture);

    /// <summary>A minute of the day as "HH:mm" ("24:00" and beyond for a block's end); the day's 1,440 made once.</summary>
    public static string Time(int minuteOfDay) =>
        (uint)minuteOfDay < (uint)Times.Length ? Times[minuteOfDay] : $"{minuteOfDay / 60:00}:{minuteOfDay % 60:00}";

    private static readonly string[] Times = [.. Enumerable.Range(0, 24 * 60).Select(m => $"{m / 60:00}:{m % 60:00}")];

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

    /// <summary>An optional day as sent: null when none came, or when it is not a day (then a field error says what is expected).</summary>
    public static DateOnly? DayOrNull(string? value, string field, Validation v)
    {
        if (value is null)
        {
            return null;
        }
        if (TryDay(value, out var day))
        {
            return day;
        }
        v.Add(field, $"Use {DayFormat}.");
        return null;
    }

    /// <summary>
    /// A whole number from a query string, digits only. Query numbers are bound as text and read
    /// here so a bad one is a 400 naming its field; the framework's binder answers a bare 400 (a
    /// 500 in Development, where it throws) that names nothing.
    /// </summary>
    public static bool TryWhole(string text, out int value) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out value);

    /// <summary>What a place id in a path must be, for its error message.</summary>
    public const string PlaceIdExpected = "A place id is a whole number from 1 to 2147483647.";

    /// <summary>A positive whole number from a path, digits only (an id).</summary>
    public static bool TryId(string text, out long id) =>
        long.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out id) && id >= 1;

    public static bool TryId(string text, out int id) =>
        int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out id) && id >= 1;

    public static bool TryTime(string? text, out TimeOnly time) =>
        TimeOnly.TryParseExact(text, "HH:mm", CultureInfo.InvariantCulture, DateTimeStyles.None, out time);
}

/// <summary>A day on the wire: documented as format date (yyyy-MM-dd).</summary>
[AttributeUsage(AttributeTargets.Property | AttributeTargets.Parameter)]
internal sealed class DayAttribute : Attribute;

/// <summary>
/// A nested object that is null when there is none (a response's optional part): its schema keeps
/// oneOf [null, the object] and it is not listed as required.
/// </summary>
[AttributeUsage(AttributeTargets.Property | AttributeTargets.Parameter)]
internal sealed class NullWhenNoneAttribute : Attribute;

/// <summary>A time of day on the wire: documented with the HH:mm pattern the server reads.</summary>
[AttributeUsage(AttributeTargets.Property | AttributeTargets.Parameter)]
internal sealed class TimeOfDayAttribute : Attribute;

/// <summary>
/// The patterns of what the server reads, for the OpenAPI document (ECMA-262 regular
/// expressions, as JSON Schema takes them). Each says exactly what the parsing code accepts.
/// </summary>
internal static class Patterns
{
    public const string Time = "^([01][0-9]|2[0-3]):[0-5][0-9]$";

    /// <summary>Letters, digits and - _ . : (ReservationRequests.IsValidKey).</summary>
    public const string IdempotencyKey = "^[A-Za-z0-9._:-]{8,100}$";

    /// <summary>6 to 20 ASCII letters and digits, with spaces, / - . ignored (PersonIdentity.NormalizeNationalId); maxLength 40 says the rest.</summary>
    public const string NationalId = "^[ /.-]*([A-Za-z0-9][ /.-]*){6,20}$";

    /// <summary>12 symbols of Crockford's base32 (I, L and O read as 1, 1 and 0; no U), any case, with spaces and dashes ignored (InvitationCode.Normalize).</summary>
    public const string InvitationCode = "^[ -]*([0-9A-TV-Za-tv-z][ -]*){12}$";

    /// <summary>Some text that is not blank and has no control characters (names, addresses).</summary>
    public const string Text = "^[^\\u0000-\\u001F\\u007F-\\u009F]*[^\\s\\u0000-\\u001F\\u007F-\\u009F][^\\u0000-\\u001F\\u007F-\\u009F]*$";

    /// <summary>
    /// A phone number as PhoneNumber.Normalize reads it: international (+ or 00, 8 to 15 digits,
    /// not starting with 0) or national (0 and the digits that make 8 to 15 with the default
    /// country code), with spaces ( ) / . - anywhere, at most 32 characters.
    /// </summary>
    public static string Phone(string defaultCountryCode)
    {
        const string sep = "[ ()./-]*";
        var national = $"0{sep}[1-9]({sep}[0-9]){{{Math.Max(0, 7 - defaultCountryCode.Length)},{14 - defaultCountryCode.Length}}}";
        return $"^(?=.{{1,32}}$){sep}(\\+{sep}[1-9]({sep}[0-9]){{7,14}}|0{sep}0{sep}[1-9]({sep}[0-9]){{7,14}}|{national}){sep}$";
    }
}

/// <summary>A phone number: documented with <see cref="Patterns.Phone"/> for the configured default country code.</summary>
[AttributeUsage(AttributeTargets.Property | AttributeTargets.Parameter)]
internal sealed class PhoneInputAttribute : Attribute;
