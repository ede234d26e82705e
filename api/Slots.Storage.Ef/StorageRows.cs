using System.Buffers;
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
    /// Every row of <paramref name="row"/> (the columns of <see cref="Availability"/>) as a slot of the place, in an array of
    /// exactly their count: the rows are gathered in a pooled buffer, not a list grown row by row, which was a third of an
    /// instance's allocations in a stampede (each place's week is read again every second).
    /// </summary>
    public static async Task<SlotAvailability[]> AvailabilityAsync(DbDataReader row, int placeId, CancellationToken ct)
    {
        var pool = ArrayPool<SlotAvailability>.Shared;
        var buffer = pool.Rent(256);
        var count = 0;
        try
        {
            while (await row.ReadAsync(ct))
            {
                if (count == buffer.Length)
                {
                    var larger = pool.Rent(count * 2);
                    buffer.AsSpan(0, count).CopyTo(larger);
                    pool.Return(buffer);
                    buffer = larger;
                }
                buffer[count++] = Availability(row, placeId);
            }
            return buffer.AsSpan(0, count).ToArray();
        }
        finally
        {
            pool.Return(buffer);
        }
    }

    /// <summary>
    /// Every place's slots in [@from, @to] from the hot seats, in key order (which the primary key gives): the columns of
    /// <see cref="Availability"/> and then place_id. The SQL both adapters run, with named parameters @from and @to.
    /// </summary>
    public const string EveryPlaceSql = """
        SELECT day, start_minute, min(minutes), CAST(count(*) AS integer),
               CAST(sum(CASE WHEN code IS NULL AND hold = 0 THEN 1 ELSE 0 END) AS integer), min(starts_at), service_id, place_id
        FROM hot_seats
        WHERE day >= @from AND day <= @to
        GROUP BY place_id, day, start_minute, service_id
        ORDER BY place_id, day, start_minute, service_id
        """;

    /// <summary>Columns of <see cref="EveryPlaceSql"/>.</summary>
    public static SlotAvailability AvailabilityOfAnyPlace(DbDataReader row) => Availability(row, row.GetInt32(7));

    private static int Service(DbDataReader row, int ordinal) => row.FieldCount > ordinal ? row.GetInt32(ordinal) : ServiceIds.Default;
}
