using Microsoft.EntityFrameworkCore;
using Slots.Storage;

namespace Slots.Window;

/// <summary>
/// The window operations on SQLite and PostgreSQL, through EF Core on the cold side. Moving days
/// in is <see cref="WindowService"/>; this adds the flush, the eviction and the purge.
/// </summary>
public sealed class WindowSync(SlotsDbContext db, WindowService window, StorageDialect dialect, TimeProvider clock) : IWindowSync
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
                : await FlushSqliteBatchAsync(batchSize, ct);
            flushed += n;
            if (n < batchSize)
            {
                break;
            }
        }
        return flushed;
    }

    /// <summary>
    /// One batch on SQLite: BEGIN IMMEDIATE holds the only write lock, so the rows read are exactly
    /// the rows deleted, and no change can commit between. Changes are applied one by one in id
    /// order, so the disk table passes through the same states as the hot one did (a seat is
    /// released before it is taken again) and its unique index on active seats always holds.
    /// </summary>
    private async Task<int> FlushSqliteBatchAsync(int batchSize, CancellationToken ct)
    {
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var batch = await db.Changes.AsNoTracking().OrderBy(c => c.Id).Take(batchSize).ToListAsync(ct);
        foreach (var c in batch)
        {
            await db.Database.ExecuteSqlRawAsync(ApplyChangeSql,
                [c.Code, c.PlaceId, c.Day, c.StartMinute, c.SeatNo, c.PersonHash, c.Phone, c.Name, c.Language, c.CreatedAt, c.Kind, c.At], ct);
        }
        if (batch.Count > 0)
        {
            await db.Database.ExecuteSqlRawAsync("DELETE FROM changes WHERE id <= {0}", [batch[^1].Id], ct);
        }
        await tx.CommitAsync(ct);
        return batch.Count;
    }

    // The change carries the whole reservation, so applying it is an upsert of that state;
    // updated_at keeps a row from going back to an older one if a change is ever applied twice.
    private const string ApplyChangeSql = """
        INSERT INTO reservations (code, place_id, day, start_minute, seat_no, person_hash, phone, name, language,
                                  created_at, cancelled_at, updated_at)
        VALUES ({0}, {1}, {2}, {3}, {4}, {5}, {6}, {7}, {8}, {9}, CASE WHEN {10} = 2 THEN {11} END, {11})
        ON CONFLICT (code) DO UPDATE SET place_id = excluded.place_id, day = excluded.day, start_minute = excluded.start_minute,
            seat_no = excluded.seat_no, person_hash = excluded.person_hash, phone = excluded.phone, name = excluded.name,
            language = excluded.language, created_at = excluded.created_at, cancelled_at = excluded.cancelled_at,
            updated_at = excluded.updated_at
        WHERE reservations.updated_at <= excluded.updated_at
        """;

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
