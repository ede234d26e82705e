using System.Diagnostics.Metrics;

namespace Slots.Scheduling;

/// <summary>
/// The Slots.Scheduler meter: per job its runs, their duration and the rows they moved, and the
/// flush lag (age of the oldest change not yet on disk), measured by each flush run.
/// </summary>
public sealed class SchedulerMetrics
{
    public const string MeterName = "Slots.Scheduler";

    private readonly Counter<long> _runs;
    private readonly Histogram<double> _duration;
    private readonly Counter<long> _rows;
    private double _flushLagSeconds;

    public SchedulerMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        _runs = meter.CreateCounter<long>("slots.scheduler.job.runs", "{run}", "Job runs, by job and outcome");
        // 1 ms to 5 min: a flush of a few rows takes milliseconds, moving a day into the window minutes at most.
        _duration = meter.CreateHistogram("slots.scheduler.job.duration", "s", "How long a job run took",
            advice: new InstrumentAdvice<double> { HistogramBucketBoundaries = [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300] });
        _rows = meter.CreateCounter<long>("slots.scheduler.job.rows", "{row}", "Rows a job moved, flushed, evicted or purged");
        meter.CreateObservableGauge("slots.scheduler.flush.lag", () => Volatile.Read(ref _flushLagSeconds), "s",
            "Age of the oldest hot change not yet flushed to disk, as of the last flush");
    }

    public double FlushLagSeconds => Volatile.Read(ref _flushLagSeconds);

    public void Ran(string job, TimeSpan duration, long rows, bool ok)
    {
        var jobTag = new KeyValuePair<string, object?>("job", job);
        _runs.Add(1, jobTag, new KeyValuePair<string, object?>("outcome", ok ? "ok" : "failed"));
        _duration.Record(duration.TotalSeconds, jobTag);
        if (rows > 0)
        {
            _rows.Add(rows, jobTag);
        }
    }

    public void FlushLag(TimeSpan lag) => Volatile.Write(ref _flushLagSeconds, Math.Max(0, lag.TotalSeconds));
}
