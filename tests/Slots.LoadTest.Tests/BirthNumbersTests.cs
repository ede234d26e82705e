using Slots.Eligibility;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Tests;

/// <summary>The crowd's birth numbers, read back by the API's own parser (Slots.Core's BirthNumber).</summary>
public sealed class BirthNumbersTests
{
    [Fact]
    public void Every_number_is_a_valid_ten_digit_birth_number_within_the_spread()
    {
        var numbers = new BirthNumbers(1954, 2005, 0.4, seed: 7);

        for (var person = 0L; person < 20_000; person++)
        {
            var number = numbers.For(person);
            Assert.Equal(10, number.Length);
            var born = BirthNumber.BirthDate(number);
            Assert.NotNull(born);
            Assert.InRange(born.Value, new DateOnly(1954, 1, 1), new DateOnly(2005, 12, 31));
        }
    }

    [Fact]
    public void No_two_people_share_a_number()
    {
        var numbers = new BirthNumbers(1980, 1980, 0.5, seed: 3);
        // Past one round of the year's days, so serials and the women's months are both exercised.
        var drawn = Enumerable.Range(0, 3 * 366).Select(p => numbers.For(p)).ToList();

        Assert.Equal(drawn.Count, drawn.Distinct().Count());
        Assert.Contains(drawn, n => n[2] >= '5'); // some women
        Assert.Contains(drawn, n => n[2] < '5'); // some men
    }

    [Fact]
    public void The_last_person_the_spread_numbers_is_valid_and_one_more_is_refused()
    {
        var numbers = new BirthNumbers(1990, 1990, 0.5, seed: 1);

        Assert.NotNull(BirthNumber.BirthDate(numbers.For(numbers.Capacity - 1)));
        Assert.Throws<ArgumentOutOfRangeException>(() => numbers.For(numbers.Capacity));
    }

    [Theory]
    [InlineData(0.0)]
    [InlineData(0.25)]
    [InlineData(0.7)]
    [InlineData(1.0)]
    public void The_eligible_share_is_born_on_or_before_the_cut_off(double share)
    {
        var numbers = new BirthNumbers(1954, 1999, share, seed: 11);

        var eligible = Enumerable.Range(0, 5_000).Count(p => BirthNumber.BirthDate(numbers.For(p)) <= numbers.CutOff);

        Assert.InRange(eligible / 5_000.0, share - 0.02, share + 0.02);
    }

    [Fact]
    public void The_same_seed_gives_the_same_crowd_and_another_seed_another()
    {
        var a = Enumerable.Range(0, 100).Select(p => new BirthNumbers(1960, 2000, 0.5, seed: 5).For(p));
        var b = Enumerable.Range(0, 100).Select(p => new BirthNumbers(1960, 2000, 0.5, seed: 5).For(p));
        var c = Enumerable.Range(0, 100).Select(p => new BirthNumbers(1960, 2000, 0.5, seed: 6).For(p));

        Assert.Equal(a, b);
        Assert.NotEqual(a, c);
    }

    [Fact]
    public void A_spread_ten_digit_numbers_cannot_encode_is_refused()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => new BirthNumbers(1950, 1960, 0.5, seed: 1)); // nine-digit years
        Assert.Throws<ArgumentOutOfRangeException>(() => new BirthNumbers(1990, 1980, 0.5, seed: 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new BirthNumbers(1990, 2054, 0.5, seed: 1));
        Assert.Throws<ArgumentOutOfRangeException>(() => new BirthNumbers(1990, 2000, 1.5, seed: 1));
    }
}
