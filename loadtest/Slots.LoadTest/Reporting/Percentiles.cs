namespace Slots.LoadTest.Reporting;

/// <summary>Latency summary of one kind of answer, in milliseconds.</summary>
public sealed record LatencyStats(long Count, double P50, double P95, double P99, double Max)
{
    public static readonly LatencyStats Empty = new(0, 0, 0, 0, 0);

    /// <summary>The same figures to two decimals, as the reports print and store them.</summary>
    public LatencyStats Rounded() => new(Count, Math.Round(P50, 2), Math.Round(P95, 2), Math.Round(P99, 2), Math.Round(Max, 2));

    /// <summary>Nearest-rank percentiles (the smallest sample with at least p% of samples at or below it).</summary>
    public static LatencyStats Of(IReadOnlyCollection<double> samples)
    {
        if (samples.Count == 0)
        {
            return Empty;
        }
        var sorted = samples.ToArray();
        Array.Sort(sorted);
        return new LatencyStats(sorted.Length, Percentile(sorted, 50), Percentile(sorted, 95), Percentile(sorted, 99), sorted[^1]);
    }

    /// <summary>The median as Python's statistics.median takes it: the middle value, or the mean of the two middle values of
    /// an even count (not a nearest rank: the benchmark's few rounds and windows are summed up by it).</summary>
    public static double Median(IReadOnlyList<double> values)
    {
        if (values.Count == 0)
        {
            throw new ArgumentException("No values to take the median of.", nameof(values));
        }
        var sorted = values.Order().ToArray();
        var middle = sorted.Length / 2;
        return sorted.Length % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
    }

    /// <summary>Nearest rank on an ascending array: index ceil(p/100 · n) − 1.</summary>
    public static double Percentile(double[] ascending, double p)
    {
        ArgumentOutOfRangeException.ThrowIfZero(ascending.Length);
        ArgumentOutOfRangeException.ThrowIfLessThan(p, 0);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(p, 100);
        var rank = (int)Math.Ceiling(p / 100.0 * ascending.Length);
        return ascending[Math.Clamp(rank - 1, 0, ascending.Length - 1)];
    }
}
