using Microsoft.EntityFrameworkCore;
using Slots.Storage.Ef;

namespace Slots.Storage.Sqlite;

/// <summary>
/// SQLite's side of the shared EF cold side: no row locks (BEGIN IMMEDIATE excludes every other writer), flushes through
/// the writer, and a new hot booking's key and change on its own row (190_reservation_events.sql).
/// </summary>
public sealed class SqliteDialect(SqliteWriter writer) : EfDialect
{
    public override bool LocksRows => false;

    public override string LoadSeatsSql => """
        WITH RECURSIVE seat(n) AS (
            SELECT 1 UNION ALL SELECT n + 1 FROM seat
            WHERE n < (SELECT MAX(capacity) FROM slots WHERE place_id = {0} AND day >= {1} AND day <= {2}))
        INSERT INTO hot_seats (place_id, day, start_minute, service_id, seat_no, minutes, starts_at, code)
        SELECT s.place_id, s.day, s.start_minute, s.service_id, seat.n, s.minutes, s.starts_at, NULL
        FROM slots s JOIN seat ON seat.n <= s.capacity
        WHERE s.place_id = {0} AND s.day >= {1} AND s.day <= {2} AND s.closed_by IS NULL
        ON CONFLICT DO NOTHING
        """;

    public override bool IsUniqueViolation(Exception exception) =>
        exception is Microsoft.Data.Sqlite.SqliteException { SqliteErrorCode: 19 }; // SQLITE_CONSTRAINT

    public override void UseProvider(DbContextOptionsBuilder options, string connectionString) =>
        options.UseSqlite(connectionString).AddInterceptors(SearchTextFunctions.Instance);

    // One queued operation of the single writer: the flush never races the hot path for the file's write lock.
    public override async Task<int> FlushChangesAsync(SlotsDbContext db, int batchSize, CancellationToken ct) =>
        await writer.WriteAsync(hot => hot.FlushChanges(batchSize), ct);

    // The cold path's transaction is BEGIN IMMEDIATE: the read alone is the lock.
    public override Task<HotKey?> LockHotKeyAsync(SlotsDbContext db, string key, CancellationToken ct) => ReadHotKeyAsync(db, key, ct);

    public override async Task<long?> OldestPendingChangeAsync(SlotsDbContext db, CancellationToken ct) =>
        (await db.Database.SqlQueryRaw<long?>("""
            SELECT min(at) AS "Value" FROM (SELECT min(at) AS at FROM changes
                                            UNION ALL SELECT min(created_at) FROM hot_reservations WHERE flush_pending = 1)
            """).ToListAsync(ct)).Single();
}
