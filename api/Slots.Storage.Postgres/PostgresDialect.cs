using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;
using Slots.Storage.Ef;

namespace Slots.Storage.Postgres;

/// <summary>
/// PostgreSQL's side of the shared EF cold side: row locks, generate_series seats, the plpgsql flush
/// (change records and new bookings, which carry their own mark on the hot row).
/// </summary>
public sealed class PostgresDialect : EfDialect
{
    public override bool LocksRows => true;

    public override string LoadSeatsSql => """
        INSERT INTO hot_seats (place_id, day, start_minute, service_id, seat_no, minutes, starts_at, code)
        SELECT s.place_id, s.day, s.start_minute, s.service_id, n.seat_no, s.minutes, s.starts_at, NULL
        FROM slots s CROSS JOIN LATERAL generate_series(1, s.capacity) AS n(seat_no)
        WHERE s.place_id = {0} AND s.day >= {1} AND s.day <= {2} AND s.closed_by IS NULL
        ON CONFLICT DO NOTHING
        """;

    /// <summary>Less the statements each connection keeps prepared (PostgresBackend.DefaultMaxAutoPrepare): Npgsql's default, none.</summary>
    public override string PlainConnectionString(string connectionString) =>
        new Npgsql.NpgsqlConnectionStringBuilder(connectionString) { MaxAutoPrepare = 0 }.ConnectionString;

    public override bool IsUniqueViolation(Exception exception) =>
        exception is Npgsql.PostgresException { SqlState: Npgsql.PostgresErrorCodes.UniqueViolation };

    public override void UseProvider(DbContextOptionsBuilder options, string connectionString) => options.UseNpgsql(connectionString);

    public override async Task<int> FlushChangesAsync(SlotsDbContext db, int batchSize, CancellationToken ct) =>
        (await db.Database.SqlQueryRaw<int>("SELECT slots_flush_changes({0}) AS \"Value\"", batchSize).ToListAsync(ct)).Single();

    public override async Task<HotKey?> LockHotKeyAsync(SlotsDbContext db, string key, CancellationToken ct)
    {
        // The same lock slots_apply takes on the key.
        await using (var lockKey = db.Database.GetDbConnection().CreateCommand())
        {
            lockKey.Transaction = db.Database.CurrentTransaction?.GetDbTransaction();
            lockKey.CommandText = "SELECT slots_lock_keys(ARRAY[@key])";
            lockKey.Parameters.Add(new Npgsql.NpgsqlParameter<string>("key", key));
            await lockKey.ExecuteNonQueryAsync(ct);
        }
        return await ReadHotKeyAsync(db, key, ct);
    }

    public override async Task<long?> OldestPendingChangeAsync(SlotsDbContext db, CancellationToken ct) =>
        (await db.Database.SqlQueryRaw<long?>("""
            SELECT least((SELECT min(at) FROM changes),
                         (SELECT h.created_at FROM hot_reservations h WHERE h.flush_pending ORDER BY h.event_id LIMIT 1)) AS "Value"
            """).ToListAsync(ct)).Single();
}
