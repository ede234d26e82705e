using System.Globalization;

namespace Slots.Eligibility;

/// <summary>
/// The Slovak and Czech birth number (rodné číslo): YYMMDD and a serial, with or without a slash.
/// Only the birth date is read out, for an eligibility decision; the number itself is kept, as
/// any national id, only as its keyed hash, and the date is never stored.
/// </summary>
public static class BirthNumber
{
    /// <summary>Nine-digit numbers (no check digit) were issued to people born before this year.</summary>
    private const int NineDigitsUntil = 1954;

    /// <summary>The extended months (+20, +70) exist for people born from this year on.</summary>
    private const int ExtendedMonthsFrom = 2004;

    /// <summary>A first nine digits ≡ 10 (mod 11) took the check digit 0 in numbers issued before this year.</summary>
    private const int OldCheckDigitUntil = 1986;

    /// <summary>The birth date the number encodes, or null when it is not a valid birth number.</summary>
    public static DateOnly? BirthDate(string? input)
    {
        if (input is null)
        {
            return null;
        }
        Span<char> digits = stackalloc char[10];
        var count = 0;
        var slashed = false;
        foreach (var c in input.AsSpan().Trim())
        {
            if (c is >= '0' and <= '9' && count < 10)
            {
                digits[count++] = c;
            }
            else if (c == '/' && count == 6 && !slashed)
            {
                slashed = true;
            }
            else
            {
                return null; // only digits, and one slash only after the date
            }
        }
        if (count is not (9 or 10))
        {
            return null;
        }
        var yy = Number(digits[..2]);
        var mm = Number(digits[2..4]);
        var dd = Number(digits[4..6]);
        int year;
        if (count == 9)
        {
            year = 1900 + yy;
            if (year >= NineDigitsUntil)
            {
                return null;
            }
        }
        else
        {
            year = yy >= NineDigitsUntil % 100 ? 1900 + yy : 2000 + yy;
            if (!CheckDigitHolds(digits, year))
            {
                return null;
            }
        }
        var month = mm switch
        {
            >= 1 and <= 12 => mm,
            >= 51 and <= 62 => mm - 50,
            >= 21 and <= 32 when year >= ExtendedMonthsFrom => mm - 20,
            >= 71 and <= 82 when year >= ExtendedMonthsFrom => mm - 70,
            _ => 0,
        };
        if (month == 0 || dd < 1 || dd > DateTime.DaysInMonth(year, month))
        {
            return null;
        }
        return new DateOnly(year, month, dd);
    }

    private static bool CheckDigitHolds(ReadOnlySpan<char> digits, int year)
    {
        var first = long.Parse(digits[..9], NumberStyles.None, CultureInfo.InvariantCulture);
        var check = digits[9] - '0';
        var remainder = (int)(first % 11);
        return remainder == check || (remainder == 10 && check == 0 && year < OldCheckDigitUntil);
    }

    private static int Number(ReadOnlySpan<char> two) => ((two[0] - '0') * 10) + (two[1] - '0');
}
