using Slots.Reservations;

namespace Slots.Api.Tests.Campaign;

/// <summary>Where a second dose may be seated: the service's interval after dose 1, or the slot the person chose within it.</summary>
public sealed class SecondDoseWindowTests
{
    private static readonly DateOnly Day1 = new(2021, 5, 3);
    private const int TenAm = 600;

    [Fact]
    public void Without_a_choice_the_range_is_the_interval_at_dose_ones_time() =>
        Assert.Equal(new SecondDoseRange(new DateOnly(2021, 5, 24), new DateOnly(2021, 6, 14), TenAm), SecondDoseWindow.For(Day1, TenAm, 21, 42));

    [Theory]
    [InlineData(21)] // the interval's first day
    [InlineData(30)]
    [InlineData(42)] // and its last
    public void A_chosen_day_within_the_interval_is_the_whole_range(int after)
    {
        var day = Day1.AddDays(after);

        Assert.Equal(new SecondDoseRange(day, day, 14 * 60), SecondDoseWindow.For(Day1, TenAm, 21, 42, (day, 14 * 60)));
    }

    [Theory]
    [InlineData(20)] // a day too early
    [InlineData(43)] // a day too late
    [InlineData(0)]
    [InlineData(-1)]
    public void A_chosen_day_outside_the_interval_is_refused(int after) =>
        Assert.Null(SecondDoseWindow.For(Day1, TenAm, 21, 42, (Day1.AddDays(after), TenAm)));

    [Fact]
    public void An_interval_of_one_day_holds_that_day_only()
    {
        Assert.Equal(new SecondDoseRange(Day1.AddDays(28), Day1.AddDays(28), TenAm), SecondDoseWindow.For(Day1, TenAm, 28, 28));
        Assert.NotNull(SecondDoseWindow.For(Day1, TenAm, 28, 28, (Day1.AddDays(28), TenAm)));
        Assert.Null(SecondDoseWindow.For(Day1, TenAm, 28, 28, (Day1.AddDays(27), TenAm)));
    }

    [Fact]
    public void The_interval_counts_calendar_days_across_months_and_years()
    {
        var range = SecondDoseWindow.For(new DateOnly(2021, 12, 20), TenAm, 21, 42)!;

        Assert.Equal((new DateOnly(2022, 1, 10), new DateOnly(2022, 1, 31)), (range.From, range.To));
    }

    [Fact]
    public void A_move_of_dose_two_is_checked_against_the_same_interval()
    {
        Assert.True(SecondDoseWindow.InInterval(Day1, 21, 42, Day1.AddDays(21)));
        Assert.True(SecondDoseWindow.InInterval(Day1, 21, 42, Day1.AddDays(42)));
        Assert.False(SecondDoseWindow.InInterval(Day1, 21, 42, Day1.AddDays(20)));
        Assert.False(SecondDoseWindow.InInterval(Day1, 21, 42, Day1.AddDays(43)));
    }

    [Fact]
    public void A_range_contains_its_days_at_its_time_only()
    {
        var range = SecondDoseWindow.For(Day1, TenAm, 21, 42)!;

        Assert.True(range.Contains(Day1.AddDays(21), TenAm));
        Assert.False(range.Contains(Day1.AddDays(21), TenAm + 15));
        Assert.False(range.Contains(Day1.AddDays(43), TenAm));
    }

    [Fact]
    public void A_broken_interval_or_time_is_a_bug_not_a_refusal()
    {
        Assert.Throws<ArgumentOutOfRangeException>(() => SecondDoseWindow.For(Day1, TenAm, 42, 21));
        Assert.Throws<ArgumentOutOfRangeException>(() => SecondDoseWindow.For(Day1, TenAm, -1, 21));
        Assert.Throws<ArgumentOutOfRangeException>(() => SecondDoseWindow.For(Day1, 24 * 60, 21, 42));
        Assert.Throws<ArgumentOutOfRangeException>(() => SecondDoseWindow.For(Day1, TenAm, 21, 42, (Day1.AddDays(30), -5)));
    }
}
