using System.Data.Common;
using Slots.Catalogue;
using Slots.Reservations;

namespace Slots.Storage.Ef;

/// <summary>
/// Reads the hot-path result rows that the SQLite and PostgreSQL adapters share column for column:
/// the same SELECT lists, so one reader serves both. A list that ends with service_id names the
/// row's service; one without it reads as the default service.
/// </summary>
public static class StorageRows
{
    /// <summary>Columns: place_id, day, start_minute, minutes, seat_no, phone, person_hash, name, language, created_at[, service_id].</summary>
    public static ReservationDetails Details(DbDataReader row, string code) => new(
        code,
        new SlotKey(row.GetInt32(0), row.GetFieldValue<DateOnly>(1), row.GetInt32(2), Service(row, 10)),
        row.GetInt32(3), row.GetInt32(4), row.GetString(5), row.GetString(6), row.GetString(7), row.GetString(8),
        DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(9)));

    /// <summary>Columns: day, start_minute, minutes, capacity, free, starts_at[, service_id].</summary>
    public static SlotAvailability Availability(DbDataReader row, int placeId) => new(
        new SlotKey(placeId, row.GetFieldValue<DateOnly>(0), row.GetInt32(1), Service(row, 6)),
        row.GetInt32(2), row.GetInt32(3), row.GetInt32(4), row.GetInt64(5));

    /// <summary>
    /// Every place's and day's <see cref="DayDigest"/> in [@from, @to] from the hot seats, one row each; the weight of a
    /// seat's (time, service) is a multiplicative hash, so that seats taken and freed at different times of one day rarely
    /// cancel out in the sums. The SQL both adapters run, with named parameters @from and @to.
    /// </summary>
    public const string DigestsSql = """
        SELECT place_id, day, CAST(count(*) AS bigint),
               CAST(sum(CASE WHEN code IS NULL AND hold = 0 THEN 1 ELSE 0 END) AS bigint),
               CAST(sum((start_minute * 64 + service_id) * 2654435761 % 2147483647) AS bigint),
               CAST(sum(CASE WHEN code IS NULL AND hold = 0 THEN (start_minute * 64 + service_id) * 2654435761 % 2147483647 ELSE 0 END) AS bigint)
        FROM hot_seats
        WHERE day >= @from AND day <= @to
        GROUP BY place_id, day
        """;

    /// <summary>Columns of <see cref="DigestsSql"/>.</summary>
    public static DayDigest Digest(DbDataReader row) => new(
        row.GetInt32(0), row.GetFieldValue<DateOnly>(1), (int)row.GetInt64(2), (int)row.GetInt64(3), row.GetInt64(4), row.GetInt64(5));

    private static int Service(DbDataReader row, int ordinal) => row.FieldCount > ordinal ? row.GetInt32(ordinal) : ServiceIds.Default;
}
