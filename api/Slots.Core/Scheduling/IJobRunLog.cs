namespace Slots.Scheduling;

/// <summary>One run of a scheduler job: when, how long, how many rows it moved, whether it succeeded, on which node.</summary>
public sealed record JobRun(string Job, DateTimeOffset StartedAt, TimeSpan Duration, long Rows, bool Ok, string Instance);

/// <summary>Keeps the last run of each job where a person can see it (the admin jobs view).</summary>
public interface IJobRunLog
{
    Task RecordAsync(JobRun run, CancellationToken ct);

    Task<IReadOnlyList<JobRun>> LastRunsAsync(CancellationToken ct);
}
