using System.Runtime.CompilerServices;
using Microsoft.Data.Sqlite;
using Slots.Reservations;
using Slots.Storage.Ef;

namespace Slots.Storage.Sqlite;

/// <summary>The embedded default: writes go through the single batching writer, reads use pooled connections (WAL).</summary>
public sealed class SqliteReservationStore(SqliteWriter writer, SqliteConnectionString connectionString) : IReservationStore
{
    /// <summary>
    /// The cheap "slot full" first, on a reader: an open slot with no free seat, for a person who
    /// holds nothing and a key not seen before, is answered without the writer, whose one queue a
    /// sold-out stampede would otherwise fill with answers that write nothing (a slot full is not
    /// remembered under its key, as on PostgreSQL). Anything else, or a seat free by the time of
    /// the read, goes to the writer, which decides again inside its transaction.
    /// </summary>
    public async ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct)
    {
        if (await NothingToWriteAsync(command, ct))
        {
            return new ReserveResult(ReservationStatus.SlotFull, null);
        }
        return await writer.WriteAsync(hot => hot.Reserve(command), ct);
    }

    private async Task<bool> NothingToWriteAsync(ReserveCommand c, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var probe = connection.CreateCommand();
        probe.CommandText = """
            SELECT NOT EXISTS (SELECT 1 FROM idempotency WHERE key = $key)
               AND NOT EXISTS (SELECT 1 FROM hot_reservations WHERE idem_key = $key)
               AND NOT EXISTS (SELECT 1 FROM active_persons WHERE person_hash = $person AND service_id = $service AND ends_at > $now)
               AND EXISTS (SELECT 1 FROM hot_seats WHERE place_id = $place AND day = $day AND start_minute = $minute
                           AND service_id = $service AND starts_at > $now)
               AND NOT EXISTS (SELECT 1 FROM hot_seats WHERE place_id = $place AND day = $day AND start_minute = $minute
                               AND service_id = $service AND code IS NULL AND hold = 0 AND starts_at > $now)
            """;
        probe.Parameters.AddWithValue("$key", c.IdempotencyKey);
        probe.Parameters.AddWithValue("$person", c.PersonHash);
        probe.Parameters.AddWithValue("$now", c.Now.ToUnixTimeSeconds());
        probe.Parameters.AddWithValue("$place", c.Slot.PlaceId);
        probe.Parameters.AddWithValue("$day", c.Slot.Day);
        probe.Parameters.AddWithValue("$minute", c.Slot.StartMinute);
        probe.Parameters.AddWithValue("$service", c.Slot.ServiceId);
        return await probe.ExecuteScalarAsync(ct) is 1L;
    }

    public async ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) =>
        await writer.WriteAsync(hot => hot.Cancel(command), ct);

    public async ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) =>
        await writer.WriteAsync(hot => hot.Reschedule(command), ct);

    public async Task<ReservationDetails?> FindAsync(string code, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var find = connection.CreateCommand();
        find.CommandText = """
            SELECT place_id, day, start_minute, minutes, seat_no, phone, person_hash, name, language, created_at, service_id
            FROM hot_reservations WHERE code = $code
            """;
        find.Parameters.AddWithValue("$code", code);
        await using var row = await find.ExecuteReaderAsync(ct);
        if (!await row.ReadAsync(ct))
        {
            return null;
        }
        return StorageRows.Details(row, code);
    }

    public async Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var query = connection.CreateCommand();
        // One range read over the primary key (place, day, time, service, seat): every service's slots.
        query.CommandText = """
            SELECT day, start_minute, MIN(minutes), COUNT(*), SUM(code IS NULL AND hold = 0), MIN(starts_at), service_id
            FROM hot_seats
            WHERE place_id = $place AND day >= $from AND day <= $to
            GROUP BY day, start_minute, service_id
            ORDER BY day, start_minute, service_id
            """;
        query.Parameters.AddWithValue("$place", placeId);
        query.Parameters.AddWithValue("$from", from);
        query.Parameters.AddWithValue("$to", to);
        await using var row = await query.ExecuteReaderAsync(ct);
        return await StorageRows.AvailabilityAsync(row, placeId, ct);
    }

    public IAsyncEnumerable<SlotAvailability>? EveryPlace(DateOnly from, DateOnly to) => EveryPlaceAsync(from, to, CancellationToken.None);

    private async IAsyncEnumerable<SlotAvailability> EveryPlaceAsync(DateOnly from, DateOnly to, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var query = connection.CreateCommand();
        query.CommandText = StorageRows.EveryPlaceSql;
        query.Parameters.AddWithValue("@from", from);
        query.Parameters.AddWithValue("@to", to);
        await using var row = await query.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            yield return StorageRows.AvailabilityOfAnyPlace(row);
        }
    }

    public async Task<bool> PingAsync(CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var ping = connection.CreateCommand();
        ping.CommandText = "SELECT COUNT(*) FROM schema_migrations";
        return await ping.ExecuteScalarAsync(ct) is long;
    }

    private async Task<SqliteConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqliteConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}

/// <summary>The resolved SQLite connection string (data folder created, pooling on).</summary>
public sealed record SqliteConnectionString(string Value);
