using Microsoft.EntityFrameworkCore;
using Slots.Storage;

namespace Slots.Window;

/// <summary>
/// Set-based moves between the slot catalogue and the hot seats, in the caller's transaction.
/// One INSERT … SELECT per call: loading a month of a busy place is one statement, not a loop.
/// </summary>
public sealed class HotWindowLoader(SlotsDbContext db, StorageDialect dialect)
{
    /// <summary>
    /// Locks the place's row for the transaction and returns its horizon. The window mover takes
    /// the lock exclusively; cold-path writers take it shared, so they do not queue behind each
    /// other but never overlap a move of the same place.
    /// </summary>
    public async Task<DateOnly> LockHorizonAsync(int placeId, CancellationToken ct, bool shared = false)
    {
        if (dialect.Provider == StorageProvider.Postgres)
        {
            var sql = shared ? "SELECT 1 FROM places WHERE id = {0} FOR SHARE" : "SELECT 1 FROM places WHERE id = {0} FOR UPDATE";
            await db.Database.ExecuteSqlRawAsync(sql, [placeId], ct);
        }
        // SQLite: the transaction is BEGIN IMMEDIATE and already holds the only write lock.
        return await db.Places.Where(p => p.Id == placeId).Select(p => p.HotUntil).SingleAsync(ct);
    }

    /// <summary>Creates the hot seats of every catalogue slot of the place in [from, to]; existing seats are kept.</summary>
    public Task<int> LoadSeatsAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct) =>
        db.Database.ExecuteSqlRawAsync(dialect.LoadSeatsSql, [placeId, from, to], ct);

    /// <summary>
    /// Makes the cold-path reservations of [from, to] hot: their seats taken and their rows copied.
    /// Runs after <see cref="LoadSeatsAsync"/> in the same transaction; rows already hot are kept,
    /// so a rerun changes nothing. Returns the reservations copied.
    /// </summary>
    public async Task<int> LoadColdReservationsAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        await db.Database.ExecuteSqlRawAsync(StorageDialect.TakeColdSeatsSql, [placeId, from, to], ct);
        return await db.Database.ExecuteSqlRawAsync(StorageDialect.CopyColdReservationsSql, [placeId, from, to], ct);
    }
}

/// <summary>The few statements whose SQL differs between backends on the cold side.</summary>
public sealed record StorageDialect(StorageProvider Provider)
{
    public string LoadSeatsSql => Provider switch
    {
        // The proc loads seats and cold reservations and advances the horizon in its own
        // transaction (nested in the caller's); rows affected = seats loaded (sql/019).
        StorageProvider.SqlServer => "EXEC dbo.load_hot_days @place_id = {0}, @from = {1}, @to = {2}",
        StorageProvider.Postgres => """
            INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code)
            SELECT s.place_id, s.day, s.start_minute, n.seat_no, s.minutes, s.starts_at, NULL
            FROM slots s CROSS JOIN LATERAL generate_series(1, s.capacity) AS n(seat_no)
            WHERE s.place_id = {0} AND s.day >= {1} AND s.day <= {2}
            ON CONFLICT DO NOTHING
            """,
        _ => """
            WITH RECURSIVE seat(n) AS (
                SELECT 1 UNION ALL SELECT n + 1 FROM seat
                WHERE n < (SELECT MAX(capacity) FROM slots WHERE place_id = {0} AND day >= {1} AND day <= {2}))
            INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code)
            SELECT s.place_id, s.day, s.start_minute, seat.n, s.minutes, s.starts_at, NULL
            FROM slots s JOIN seat ON seat.n <= s.capacity
            WHERE s.place_id = {0} AND s.day >= {1} AND s.day <= {2}
            ON CONFLICT DO NOTHING
            """,
    };

    // UPDATE … FROM reads the same on PostgreSQL and SQLite (3.33+).
    internal const string TakeColdSeatsSql = """
        UPDATE hot_seats AS h SET code = r.code
        FROM reservations AS r
        WHERE r.place_id = h.place_id AND r.day = h.day AND r.start_minute = h.start_minute AND r.seat_no = h.seat_no
          AND h.place_id = {0} AND h.day >= {1} AND h.day <= {2}
          AND r.cancelled_at IS NULL AND h.code IS NULL
        """;

    internal const string CopyColdReservationsSql = """
        INSERT INTO hot_reservations (code, place_id, day, start_minute, seat_no, minutes, starts_at,
                                      person_hash, phone, name, language, created_at)
        SELECT r.code, r.place_id, r.day, r.start_minute, r.seat_no, s.minutes, s.starts_at,
               r.person_hash, r.phone, r.name, r.language, r.created_at
        FROM reservations r
        JOIN slots s ON s.place_id = r.place_id AND s.day = r.day AND s.start_minute = r.start_minute
        WHERE r.place_id = {0} AND r.day >= {1} AND r.day <= {2} AND r.cancelled_at IS NULL
        ON CONFLICT DO NOTHING
        """;
}
