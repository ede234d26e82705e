using Microsoft.Data.Sqlite;
using Slots.Reservations;
using Slots.Storage.Ef;

namespace Slots.Storage.Sqlite;

/// <summary>The embedded default: writes go through the single batching writer, reads use pooled connections (WAL).</summary>
public sealed class SqliteReservationStore(SqliteWriter writer, SqliteConnectionString connectionString) : IReservationStore
{
    public async ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct) =>
        await writer.WriteAsync(hot => hot.Reserve(command), ct);

    public async ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) =>
        await writer.WriteAsync(hot => hot.Cancel(command), ct);

    public async ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) =>
        await writer.WriteAsync(hot => hot.Reschedule(command), ct);

    public async Task<ReservationDetails?> FindAsync(string code, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var find = connection.CreateCommand();
        find.CommandText = """
            SELECT place_id, day, start_minute, minutes, seat_no, phone, person_hash, name, language, created_at
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
        // One range read over the primary key (place, day, time, seat).
        query.CommandText = """
            SELECT day, start_minute, MIN(minutes), COUNT(*), SUM(code IS NULL), MIN(starts_at)
            FROM hot_seats
            WHERE place_id = $place AND day >= $from AND day <= $to
            GROUP BY day, start_minute
            ORDER BY day, start_minute
            """;
        query.Parameters.AddWithValue("$place", placeId);
        query.Parameters.AddWithValue("$from", from);
        query.Parameters.AddWithValue("$to", to);
        var slots = new List<SlotAvailability>();
        await using var row = await query.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            slots.Add(StorageRows.Availability(row, placeId));
        }
        return slots;
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
