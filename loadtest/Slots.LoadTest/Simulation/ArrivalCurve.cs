namespace Slots.LoadTest.Simulation;

/// <summary>
/// How many virtual users have arrived by a given moment: a steady warm-up rate, then a sudden
/// step to a higher rate (the press conference) until the end. Open loop: arrivals do not wait
/// for the server, as a crowd does not.
/// </summary>
public sealed record ArrivalCurve(double WarmupRate, TimeSpan Warmup, double StepRate)
{
    /// <summary>Arrivals expected in [0, elapsed): the integral of the rate, rounded down.</summary>
    public long ArrivalsBy(TimeSpan elapsed)
    {
        if (elapsed <= TimeSpan.Zero)
        {
            return 0;
        }
        var warm = Math.Min(elapsed.TotalSeconds, Warmup.TotalSeconds);
        var stepped = Math.Max(0, elapsed.TotalSeconds - Warmup.TotalSeconds);
        return (long)Math.Floor((WarmupRate * warm) + (StepRate * stepped));
    }

    /// <summary>The arrival rate (users per second) at a given moment.</summary>
    public double RateAt(TimeSpan elapsed) => elapsed < Warmup ? WarmupRate : StepRate;
}
