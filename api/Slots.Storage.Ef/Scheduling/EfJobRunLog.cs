using Microsoft.EntityFrameworkCore;
using Slots.Scheduling;

namespace Slots.Storage.Ef;

/// <summary>The run log on SQLite and PostgreSQL: one row per job in job_runs, replaced by each run.</summary>
public sealed class EfJobRunLog(SlotsDbContext db) : IJobRunLog
{
    public Task RecordAsync(JobRun run, CancellationToken ct) => db.Database.ExecuteSqlRawAsync("""
        INSERT INTO job_runs (job, started_at, duration_ms, rows_moved, ok, instance) VALUES ({0}, {1}, {2}, {3}, {4}, {5})
        ON CONFLICT (job) DO UPDATE SET started_at = excluded.started_at, duration_ms = excluded.duration_ms,
            rows_moved = excluded.rows_moved, ok = excluded.ok, instance = excluded.instance
        """, [run.Job, run.StartedAt.ToUnixTimeSeconds(), (long)run.Duration.TotalMilliseconds, run.Rows, run.Ok, run.Instance], ct);

    public Task<IReadOnlyList<JobRun>> LastRunsAsync(CancellationToken ct) => LastRunsAsync(db, ct);

    /// <summary>The last run of each job, by name (also SQL Server's, whose write is a proc).</summary>
    public static async Task<IReadOnlyList<JobRun>> LastRunsAsync(SlotsDbContext db, CancellationToken ct) =>
        (await db.JobRuns.AsNoTracking().OrderBy(r => r.Job).ToListAsync(ct))
            .Select(r => new JobRun(r.Job, DateTimeOffset.FromUnixTimeSeconds(r.StartedAt), TimeSpan.FromMilliseconds(r.DurationMs), r.RowsMoved, r.Ok, r.Instance))
            .ToList();
}
