namespace Slots.LoadTest.Simulation;

/// <summary>
/// Valid ten-digit birth numbers for a simulated crowd of an age-limited service: born between
/// <c>firstYear</c> and <c>lastYear</c>, a chosen share of them on or before <see cref="CutOff"/>
/// (the date to give the service's open age step). Person n always gets the same number for the same
/// seed, and no two people of one crowd share one, so the one-booking rule sees distinct persons.
/// </summary>
/// <remarks>
/// Person n is born on day <c>(a·(n mod D) + b) mod D</c> of the D days of the spread, a coprime to D
/// near its golden section (nudged by the seed) and b from the seed: an affine permutation that spreads
/// consecutive people over the whole range, so any run of people holds the share, and a run of D people
/// holds it exactly. <c>n div D</c> picks the sex (the month + 50) and the serial; a serial whose nine
/// digits leave remainder 10 is skipped, as no check digit fits it from 1986 on.
/// </remarks>
public sealed class BirthNumbers
{
    private const int FirstTenDigitYear = 1954;
    private const int SerialsPerDayAndSex = 1000;
    private static readonly double GoldenSection = (Math.Sqrt(5) - 1) / 2;

    private readonly DateOnly _first;
    private readonly int _days;
    private readonly long _multiplier;
    private readonly long _offset;

    /// <param name="eligibleShare">From 0 (nobody is old enough) to 1 (everybody is).</param>
    public BirthNumbers(int firstYear, int lastYear, double eligibleShare, int seed)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(firstYear, FirstTenDigitYear); // nine-digit numbers carry no check digit to test
        ArgumentOutOfRangeException.ThrowIfLessThan(lastYear, firstYear);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(lastYear, 2053); // YY from 00 to 53 reads as 20YY in ten digits
        if (eligibleShare is < 0 or > 1 || double.IsNaN(eligibleShare))
        {
            throw new ArgumentOutOfRangeException(nameof(eligibleShare), eligibleShare, "A share is from 0 to 1.");
        }
        _first = new DateOnly(firstYear, 1, 1);
        _days = new DateOnly(lastYear, 12, 31).DayNumber - _first.DayNumber + 1;
        CutOff = _first.AddDays((int)Math.Round(eligibleShare * _days) - 1);
        // A step near the golden section of the range spreads any run of people most evenly (a small step
        // would give the first thousand people the first few years); the seed moves it a little and shifts the start.
        var rng = new Random(seed);
        _multiplier = (long)(_days * GoldenSection) + rng.Next(64);
        while (Gcd(_multiplier, _days) != 1)
        {
            _multiplier++;
        }
        _offset = rng.Next(_days);
        // Per day: men and women, each the serials whose check digit exists (about 10 in 11).
        Capacity = (long)_days * 2 * (SerialsPerDayAndSex - (SerialsPerDayAndSex / 11) - 1);
    }

    /// <summary>People born on or before this day are the eligible share; the day before the spread when the share is 0.</summary>
    public DateOnly CutOff { get; }

    /// <summary>How many distinct people this spread can number.</summary>
    public long Capacity { get; }

    /// <summary>Person <paramref name="person"/>'s birth number: ten digits, no slash.</summary>
    public string For(long person)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(person);
        ArgumentOutOfRangeException.ThrowIfGreaterThanOrEqual(person, Capacity);
        var d = person % _days;
        var k = person / _days;
        var born = _first.AddDays((int)(((_multiplier * d) + _offset) % _days));
        var woman = (k + d) % 2 == 1;
        var datePart = ((born.Year % 100) * 10_000) + ((born.Month + (woman ? 50 : 0)) * 100) + born.Day;
        var first9 = (datePart * 1000L) + Serial(datePart, k / 2);
        return $"{first9:D9}{first9 % 11}";
    }

    /// <summary>The <paramref name="index"/>-th serial (from 0) whose nine digits leave a remainder below 10.</summary>
    private static int Serial(int datePart, long index)
    {
        var seen = -1L;
        for (var serial = 0; serial < SerialsPerDayAndSex; serial++)
        {
            if (((datePart * 1000L) + serial) % 11 != 10 && ++seen == index)
            {
                return serial;
            }
        }
        throw new InvalidOperationException("More people than the spread has birth numbers for.");
    }

    private static long Gcd(long a, long b) => b == 0 ? a : Gcd(b, a % b);
}
