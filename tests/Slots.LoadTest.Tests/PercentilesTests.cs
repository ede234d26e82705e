using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Tests;

public sealed class PercentilesTests
{
    [Fact]
    public void Nearest_rank_of_one_to_a_hundred_is_the_rank_itself()
    {
        var samples = Enumerable.Range(1, 100).Select(i => (double)i).Reverse().ToList();

        var stats = LatencyStats.Of(samples);

        Assert.Equal(100, stats.Count);
        Assert.Equal(50, stats.P50);
        Assert.Equal(95, stats.P95);
        Assert.Equal(99, stats.P99);
        Assert.Equal(100, stats.Max);
    }

    [Fact]
    public void A_single_slow_answer_in_ten_shows_in_p95_and_p99_but_not_p50()
    {
        double[] samples = [1, 1, 1, 1, 1, 1, 1, 1, 1, 250];

        var stats = LatencyStats.Of(samples);

        Assert.Equal(1, stats.P50);
        Assert.Equal(250, stats.P95); // rank ceil(9.5) = 10
        Assert.Equal(250, stats.P99);
    }

    [Fact]
    public void Small_samples_take_the_upper_neighbour()
    {
        Assert.Equal(2, LatencyStats.Percentile([1, 2, 3], 50)); // rank ceil(1.5) = 2
        Assert.Equal(1, LatencyStats.Percentile([1, 2, 3], 0));
        Assert.Equal(3, LatencyStats.Percentile([1, 2, 3], 100));
    }

    [Fact]
    public void No_samples_give_zero_count_not_an_exception()
    {
        Assert.Equal(0, LatencyStats.Of([]).Count);
        Assert.Throws<ArgumentOutOfRangeException>(() => LatencyStats.Percentile([], 50));
    }
}
