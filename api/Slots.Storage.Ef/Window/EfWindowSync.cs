using Microsoft.EntityFrameworkCore;
using Slots.Window;

namespace Slots.Storage.Ef;

/// <summary>
/// The window operations on SQLite and PostgreSQL, through EF Core on the cold side. Moving days
/// in is <see cref="EfWindowMover"/>; this adds the flush and the eviction. Each flush batch is
/// the dialect's own (one plpgsql call on PostgreSQL, one queued operation of the single writer
/// on SQLite).
/// </summary>
public sealed class EfWindowSync(SlotsDbContext db, EfWindowMover window, EfDialect dialect, TimeProvider clock)
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
            var n = await dialect.FlushChangesAsync(db, batchSize, ct);
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

    public async Task<DateTimeOffset?> OldestPendingChangeAsync(CancellationToken ct)
    {
        var oldest = await dialect.OldestPendingChangeAsync(db, ct);
        return oldest is { } at ? DateTimeOffset.FromUnixTimeSeconds(at) : null;
    }
}
