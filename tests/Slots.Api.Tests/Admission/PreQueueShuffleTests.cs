using Slots.Admission;

namespace Slots.Api.Tests.Admission;

/// <summary>The pre-queue's order after the opening: a permutation that the order of arrival does not predict.</summary>
public sealed class PreQueueShuffleTests
{
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(5)]
    [InlineData(17)]
    [InlineData(256)]
    [InlineData(1000)]
    [InlineData(4097)]
    public void Every_pre_queue_ticket_gets_its_own_position_in_1_to_n(int n)
    {
        var key = PreQueueShuffle.NewKey();

        var positions = Enumerable.Range(1, n).Select(t => PreQueueShuffle.Position(key, n, t)).ToList();

        Assert.Equal(Enumerable.Range(1, n).Select(i => (long)i), positions.Order());
    }

    [Fact]
    public void Arrival_order_does_not_predict_the_position()
    {
        const int n = 2000;
        var key = PreQueueShuffle.NewKey();
        var other = PreQueueShuffle.NewKey();
        var shuffled = Enumerable.Range(1, n).Select(t => (double)PreQueueShuffle.Position(key, n, t)).ToList();

        // Spearman's rank correlation of arrival and position: about ±0.02 for a random order; 1 for first come, first served.
        var rho = Correlation(Enumerable.Range(1, n).Select(i => (double)i).ToList(), shuffled);
        Assert.InRange(rho, -0.1, 0.1);
        // The early tenth is spread over the whole line, not bunched at its front.
        var earlyAtFront = shuffled.Take(n / 10).Count(p => p <= n / 10);
        Assert.InRange(earlyAtFront, 0, n / 10 / 4);
        // Another opening's key, another order.
        Assert.NotEqual(Enumerable.Range(1, n).Select(t => (double)PreQueueShuffle.Position(other, n, t)), shuffled);
    }

    [Fact]
    public void The_first_arrival_is_equally_likely_anywhere_across_openings()
    {
        const int n = 10;
        const int openings = 4000;
        var counts = new int[n];
        for (var i = 0; i < openings; i++)
        {
            counts[PreQueueShuffle.Position(PreQueueShuffle.NewKey(), n, 1) - 1]++;
        }

        // Expected 400 each; a fair draw stays far inside these bounds (about ±6 standard deviations).
        Assert.All(counts, c => Assert.InRange(c, 280, 520));
    }

    [Fact]
    public void One_key_gives_one_order_on_every_instance()
    {
        var key = PreQueueShuffle.NewKey();

        Assert.Equal(
            Enumerable.Range(1, 100).Select(t => PreQueueShuffle.Position(key, 100, t)),
            Enumerable.Range(1, 100).Select(t => PreQueueShuffle.Position(key.ToArray(), 100, t)));
    }

    private static double Correlation(IReadOnlyList<double> x, IReadOnlyList<double> y)
    {
        var mx = x.Average();
        var my = y.Average();
        var cov = x.Zip(y, (a, b) => (a - mx) * (b - my)).Sum();
        return cov / Math.Sqrt(x.Sum(a => (a - mx) * (a - mx)) * y.Sum(b => (b - my) * (b - my)));
    }
}
