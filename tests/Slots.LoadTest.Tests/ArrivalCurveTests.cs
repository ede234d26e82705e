using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Tests;

public sealed class ArrivalCurveTests
{
    private static readonly ArrivalCurve Step = new(WarmupRate: 10, Warmup: TimeSpan.FromSeconds(5), StepRate: 200);

    [Fact]
    public void Nobody_has_arrived_at_the_start() => Assert.Equal(0, Step.ArrivalsBy(TimeSpan.Zero));

    [Fact]
    public void The_warm_up_arrives_at_its_rate() => Assert.Equal(30, Step.ArrivalsBy(TimeSpan.FromSeconds(3)));

    [Fact]
    public void After_the_step_the_crowd_arrives_at_the_step_rate()
    {
        Assert.Equal(50, Step.ArrivalsBy(TimeSpan.FromSeconds(5)));
        Assert.Equal(50 + 200, Step.ArrivalsBy(TimeSpan.FromSeconds(6)));
        Assert.Equal(50 + 1000, Step.ArrivalsBy(TimeSpan.FromSeconds(10)));
        Assert.Equal(200, Step.RateAt(TimeSpan.FromSeconds(7)));
        Assert.Equal(10, Step.RateAt(TimeSpan.FromSeconds(4.9)));
    }

    [Fact]
    public void Arrivals_never_decrease()
    {
        long previous = 0;
        for (var ms = 0; ms <= 12_000; ms += 7)
        {
            var now = Step.ArrivalsBy(TimeSpan.FromMilliseconds(ms));
            Assert.True(now >= previous, $"arrivals went back at {ms} ms");
            previous = now;
        }
    }

    [Fact]
    public void Without_a_warm_up_the_step_starts_at_once() =>
        Assert.Equal(100, new ArrivalCurve(10, TimeSpan.Zero, 100).ArrivalsBy(TimeSpan.FromSeconds(1)));
}
