namespace Slots.Scheduling;

public sealed class SchedulerOptions
{
    public const string Section = "Slots:Scheduler";

    /// <summary>
    /// Whether the API process runs the jobs itself. Unset: yes on SQLite (the embedded default is
    /// one process), no on the server backends, where the scheduler host runs them.
    /// </summary>
    public bool? InProcess { get; set; }

    /// <summary>How often the window is checked for days coming within reach.</summary>
    public TimeSpan AdvanceEvery { get; set; } = TimeSpan.FromMinutes(5);

    /// <summary>How often hot changes are flushed to the disk tables: the most the disk lags behind.</summary>
    public TimeSpan FlushEvery { get; set; } = TimeSpan.FromSeconds(5);

    /// <summary>How often ended days are evicted from the hot tables.</summary>
    public TimeSpan EvictEvery { get; set; } = TimeSpan.FromMinutes(15);

    /// <summary>How often old idempotency records are purged.</summary>
    public TimeSpan PurgeEvery { get; set; } = TimeSpan.FromHours(1);

    /// <summary>How often ended slots' bookings nobody checked in are marked no-shows.</summary>
    public TimeSpan NoShowsEvery { get; set; } = TimeSpan.FromMinutes(1);

    /// <summary>How often the scheduler looks for a site's block cancel whose runner died, to finish it.</summary>
    public TimeSpan ResumeBlockCancelsEvery { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>How often due day-before reminders are queued (each run queues at most Slots:Reminders:PerSecond times this).</summary>
    public TimeSpan RemindersEvery { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>Most change records one flush transaction drains.</summary>
    public int FlushBatch { get; set; } = 500;

    /// <summary>How long an idempotency key is remembered (clients retry within minutes; a day is generous).</summary>
    public TimeSpan IdempotencyRetention { get; set; } = TimeSpan.FromHours(24);

    /// <summary>This node's name in the cluster (job_runs.instance); unset, Quartz makes a unique one.</summary>
    public string? InstanceId { get; set; }

    /// <summary>Clustered store: how often a node checks in; a node silent for longer is taken for dead and its work moves.</summary>
    public TimeSpan CheckinInterval { get; set; } = TimeSpan.FromSeconds(10);
}
