using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Storage;
using Slots.Storage.Sqlite;

namespace Slots.Window;

/// <summary>
/// The window operations on SQLite and PostgreSQL, through EF Core on the cold side. Moving days
/// in is <see cref="WindowService"/>; this adds the flush, the eviction and the purge. The flush
/// is one plpgsql call per batch on PostgreSQL (slots_flush_changes) and one queued operation of
/// the single writer on SQLite (SqliteHotPath.FlushChanges).
/// </summary>
public sealed class WindowSync(SlotsDbContext db, WindowService window, StorageDialect dialect, TimeProvider clock, IServiceProvider services)
    : IWindowSync
{
    /// <summary>Most batches one flush call drains, so a run under constant load still ends (the next run goes on).</summary>
    public const int MaxBatchesPerRun = 200;

    public Task<WindowMove> AdvanceAsync(CancellationToken ct) => window.AdvanceAsync(ct);

    public async Task<int> FlushAsync(int batchSize, CancellationToken ct)
    {
        var flushed = 0;
        for (var i = 0; i < MaxBatchesPerRun; i++)
        {
            var n = dialect.Provider == StorageProvider.Postgres
                ? (await db.Database.SqlQueryRaw<int>("SELECT slots_flush_changes({0}) AS \"Value\"", batchSize).ToListAsync(ct)).Single()
                : await services.GetRequiredService<SqliteWriter>().WriteAsync(hot => hot.FlushChanges(batchSize), ct);
            flushed += n;
            if (n < batchSize)
            {
                break;
            }
        }
        return flushed;
    }

    public async Task<int> EvictAsync(int batchSize, CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        var places = await db.Places.AsNoTracking().Select(p => new { p.Id, p.TimeZone }).ToListAsync(ct);
        // The last flush: what is still pending after it (a change committed meanwhile) keeps its row until the next run.
        await FlushAsync(batchSize, ct);
        var evicted = 0;
        foreach (var place in places)
        {
            var today = LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(place.TimeZone), now);
            // Every slot of a day before today has started, and a started slot takes no reservation,
            // cancellation or reschedule: nothing new can arrive for these rows after the flush.
            evicted += await db.Database.ExecuteSqlRawAsync("""
                DELETE FROM hot_reservations
                WHERE place_id = {0} AND day < {1} AND code NOT IN (SELECT c.code FROM changes c)
                """, [place.Id, today], ct);
            await db.Database.ExecuteSqlRawAsync("""
                DELETE FROM hot_seats
                WHERE place_id = {0} AND day < {1}
                  AND (code IS NULL OR NOT EXISTS (SELECT 1 FROM hot_reservations r WHERE r.code = hot_seats.code))
                """, [place.Id, today], ct);
        }
        // A person whose reservation has ended may book again; the hot path treats such a row as free anyway.
        await db.Database.ExecuteSqlRawAsync("DELETE FROM active_persons WHERE ends_at <= {0}", [now.ToUnixTimeSeconds()], ct);
        return evicted;
    }

    public Task<int> PurgeIdempotencyAsync(DateTimeOffset before, CancellationToken ct)
    {
        var cutoff = before.ToUnixTimeSeconds();
        return db.Idempotency.Where(i => i.CreatedAt < cutoff).ExecuteDeleteAsync(ct);
    }

    public async Task<DateTimeOffset?> OldestPendingChangeAsync(CancellationToken ct)
    {
        var oldest = await db.Changes.AsNoTracking().MinAsync(c => (long?)c.At, ct);
        return oldest is { } at ? DateTimeOffset.FromUnixTimeSeconds(at) : null;
    }
}
