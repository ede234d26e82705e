using Microsoft.EntityFrameworkCore;

namespace Slots.Storage.Ef;

/// <summary>
/// Set-based moves between the slot catalogue and the hot seats, in the caller's transaction.
/// One INSERT … SELECT per call: loading a month of a busy place is one statement, not a loop.
/// </summary>
public sealed class HotWindowLoader(SlotsDbContext db, EfDialect dialect)
{
    /// <summary>
    /// Locks the place's row for the transaction and returns its horizon. The window mover takes
    /// the lock exclusively; cold-path writers take it shared, so they do not queue behind each
    /// other but never overlap a move of the same place.
    /// </summary>
    public async Task<DateOnly> LockHorizonAsync(int placeId, CancellationToken ct, bool shared = false)
    {
        if (dialect.LocksRows)
        {
            var sql = shared ? "SELECT 1 FROM places WHERE id = {0} FOR SHARE" : "SELECT 1 FROM places WHERE id = {0} FOR UPDATE";
            await db.Database.ExecuteSqlRawAsync(sql, [placeId], ct);
        }
        return await db.Places.Where(p => p.Id == placeId).Select(p => p.HotUntil).SingleAsync(ct);
    }

    /// <summary>
    /// Locks one slot's catalogue row and its hot seats for the transaction, where the backend locks
    /// rows (PostgreSQL): cold-path bookings of the slot wait, the hot path's seat waves skip the
    /// seats, and a cancel or move of a booking on them waits. SQLite's one writer needs no lock.
    /// </summary>
    public async Task LockSlotAsync(int placeId, DateOnly day, int startMinute, int serviceId, CancellationToken ct)
    {
        if (dialect.LocksRows)
        {
            await db.Database.ExecuteSqlRawAsync("""
                SELECT 1 FROM slots WHERE place_id = {0} AND day = {1} AND start_minute = {2} AND service_id = {3} FOR UPDATE;
                SELECT 1 FROM hot_seats WHERE place_id = {0} AND day = {1} AND start_minute = {2} AND service_id = {3} FOR UPDATE
                """, [placeId, day, startMinute, serviceId], ct);
        }
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
        await db.Database.ExecuteSqlRawAsync(TakeColdSeatsSql, [placeId, from, to], ct);
        return await db.Database.ExecuteSqlRawAsync(CopyColdReservationsSql, [placeId, from, to], ct);
    }

    // UPDATE … FROM reads the same on PostgreSQL and SQLite (3.33+). A seat is one service's: two
    // services at the same minute both have a seat 1.
    private const string TakeColdSeatsSql = """
        UPDATE hot_seats AS h SET code = r.code
        FROM reservations AS r
        WHERE r.place_id = h.place_id AND r.day = h.day AND r.start_minute = h.start_minute AND r.service_id = h.service_id
          AND r.seat_no = h.seat_no
          AND h.place_id = {0} AND h.day >= {1} AND h.day <= {2}
          AND r.cancelled_at IS NULL AND h.code IS NULL
        """;

    private const string CopyColdReservationsSql = """
        INSERT INTO hot_reservations (code, place_id, day, start_minute, service_id, seat_no, minutes, starts_at,
                                      person_hash, phone, name, language, created_at)
        SELECT r.code, r.place_id, r.day, r.start_minute, r.service_id, r.seat_no, s.minutes, s.starts_at,
               r.person_hash, r.phone, r.name, r.language, r.created_at
        FROM reservations r
        JOIN slots s ON s.place_id = r.place_id AND s.day = r.day AND s.start_minute = r.start_minute AND s.service_id = r.service_id
        WHERE r.place_id = {0} AND r.day >= {1} AND r.day <= {2} AND r.cancelled_at IS NULL
        ON CONFLICT DO NOTHING
        """;
}
