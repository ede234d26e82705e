using Slots.Eligibility;

namespace Slots.Api.Tests.Eligibility;

/// <summary>The cut-off in force and the day a person's group opens, read from a service's dated age steps.</summary>
public sealed class AgeStepsTests
{
    private static readonly DateTimeOffset Now = new(2021, 4, 20, 10, 0, 0, TimeSpan.Zero);

    private static AgeStep Step(TimeSpan opensIn, int bornYear) =>
        new(Now.Add(opensIn).ToUnixTimeSeconds(), new DateOnly(bornYear, 12, 31));

    private static readonly AgeStep Seventy = Step(TimeSpan.FromDays(-10), 1951);
    private static readonly AgeStep SixtyFive = Step(TimeSpan.FromDays(-2), 1956);
    private static readonly AgeStep Sixty = Step(TimeSpan.FromDays(3), 1961);
    private static readonly AgeStep FiftyFive = Step(TimeSpan.FromDays(7), 1966);
    private static readonly AgeStep[] Ladder = [FiftyFive, Seventy, Sixty, SixtyFive]; // not in order: the store's order is no promise

    [Fact]
    public void The_cut_off_is_the_widest_step_already_open() =>
        Assert.Equal(new DateOnly(1956, 12, 31), AgeSteps.CutOff(Ladder, Now));

    [Fact]
    public void There_is_no_cut_off_before_the_first_step_opens() =>
        Assert.Null(AgeSteps.CutOff([Sixty, FiftyFive], Now));

    [Fact]
    public void No_steps_means_no_cut_off() =>
        Assert.Null(AgeSteps.CutOff([], Now));

    [Fact]
    public void A_step_is_open_from_its_instant_on_not_a_second_before()
    {
        var step = new AgeStep(Now.ToUnixTimeSeconds(), new DateOnly(1961, 12, 31));

        Assert.Null(AgeSteps.CutOff([step], Now.AddSeconds(-1)));
        Assert.Equal(step.BornOnOrBefore, AgeSteps.CutOff([step], Now));
    }

    [Fact]
    public void A_later_step_with_an_earlier_date_does_not_narrow_the_opening()
    {
        var narrower = Step(TimeSpan.FromDays(-1), 1940);

        Assert.Equal(new DateOnly(1956, 12, 31), AgeSteps.CutOff([SixtyFive, narrower], Now));
    }

    [Theory]
    [InlineData(1957, 1, 1, 3)] // the day after the cut-off in force: the next step
    [InlineData(1961, 12, 31, 3)] // the next step's own cut-off day
    [InlineData(1962, 1, 1, 7)] // one day too young for it: the step after
    [InlineData(1966, 12, 31, 7)]
    public void A_too_young_person_learns_the_first_step_that_covers_them(int year, int month, int day, int inDays) =>
        Assert.Equal(Now.AddDays(inDays), AgeSteps.OpensOn(Ladder, new DateOnly(year, month, day), Now));

    [Fact]
    public void Nobody_learns_a_date_no_step_announces() =>
        Assert.Null(AgeSteps.OpensOn(Ladder, new DateOnly(1967, 1, 1), Now));

    [Fact]
    public void A_step_already_open_is_not_announced_as_opening()
    {
        // Covered only by steps in the past: their turn has come, there is nothing to wait for.
        Assert.Null(AgeSteps.OpensOn([Seventy, SixtyFive], new DateOnly(1950, 1, 1), Now));
        Assert.Null(AgeSteps.OpensOn([Sixty], new DateOnly(1950, 1, 1), Now.AddDays(3)));
    }

    [Fact]
    public void Of_two_future_steps_covering_a_person_the_earlier_is_their_opening()
    {
        var wideLater = Step(TimeSpan.FromDays(9), 1980);

        Assert.Equal(Sixty.Opens, AgeSteps.OpensOn([wideLater, FiftyFive, Sixty], new DateOnly(1960, 6, 1), Now));
    }
}
