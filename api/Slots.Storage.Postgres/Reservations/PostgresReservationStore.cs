using Npgsql;
using NpgsqlTypes;
using Slots.Reservations;
using Slots.Storage.Ef;

namespace Slots.Storage.Postgres;

/// <summary>
/// The hot path on PostgreSQL: every write is one call of a plpgsql function (schema script
/// 001), so it is ONE round trip and ONE atomic statement on the server, safe under READ
/// COMMITTED however many API instances run. Commands are prepared on each pooled physical
/// connection once (Npgsql keeps prepared statements across pool rentals) with typed parameters.
/// </summary>
public sealed class PostgresReservationStore(NpgsqlDataSource dataSource) : IReservationStore
{
    public async ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var reserve = new NpgsqlCommand(Sql.Reserve, connection);
        var p = reserve.Parameters;
        p.Add(new NpgsqlParameter<int> { NpgsqlDbType = NpgsqlDbType.Integer, TypedValue = command.Slot.PlaceId });
        p.Add(new NpgsqlParameter<DateOnly> { NpgsqlDbType = NpgsqlDbType.Date, TypedValue = command.Slot.Day });
        p.Add(new NpgsqlParameter<int> { NpgsqlDbType = NpgsqlDbType.Integer, TypedValue = command.Slot.StartMinute });
        p.Add(Text(command.PersonHash));
        p.Add(Text(command.Phone));
        p.Add(Text(command.Name));
        p.Add(Text(command.Language));
        p.Add(Text(command.NewCode));
        p.Add(Text(command.IdempotencyKey));
        p.Add(Text(command.Fingerprint));
        p.Add(Instant(command.Now));
        await reserve.PrepareAsync(ct);
        await using var row = await reserve.ExecuteReaderAsync(ct);
        await row.ReadAsync(ct);
        var status = row.GetInt32(0);
        if (status == 0)
        {
            return null; // the key was used before for a different request
        }
        return new ReserveResult((ReservationStatus)status, row.IsDBNull(1) ? null : row.GetString(1), row.GetBoolean(2));
    }

    public async ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var cancel = new NpgsqlCommand(Sql.Cancel, connection);
        cancel.Parameters.Add(Text(command.Code));
        cancel.Parameters.Add(NullableText(command.Proof.Phone));
        cancel.Parameters.Add(NullableText(command.Proof.PersonHash));
        cancel.Parameters.Add(Instant(command.Now));
        await cancel.PrepareAsync(ct);
        return (CancelStatus)(int)(await cancel.ExecuteScalarAsync(ct))!;
    }

    public async ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var reschedule = new NpgsqlCommand(Sql.Reschedule, connection);
        var p = reschedule.Parameters;
        p.Add(Text(command.Code));
        p.Add(NullableText(command.Proof.Phone));
        p.Add(NullableText(command.Proof.PersonHash));
        p.Add(new NpgsqlParameter<int> { NpgsqlDbType = NpgsqlDbType.Integer, TypedValue = command.Target.PlaceId });
        p.Add(new NpgsqlParameter<DateOnly> { NpgsqlDbType = NpgsqlDbType.Date, TypedValue = command.Target.Day });
        p.Add(new NpgsqlParameter<int> { NpgsqlDbType = NpgsqlDbType.Integer, TypedValue = command.Target.StartMinute });
        p.Add(Instant(command.Now));
        await reschedule.PrepareAsync(ct);
        return (RescheduleStatus)(int)(await reschedule.ExecuteScalarAsync(ct))!;
    }

    public async Task<ReservationDetails?> FindAsync(string code, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var find = new NpgsqlCommand(Sql.Find, connection);
        find.Parameters.Add(Text(code));
        await find.PrepareAsync(ct);
        await using var row = await find.ExecuteReaderAsync(ct);
        if (!await row.ReadAsync(ct))
        {
            return null;
        }
        return StorageRows.Details(row, code);
    }

    public async Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var query = new NpgsqlCommand(Sql.Availability, connection);
        query.Parameters.Add(new NpgsqlParameter<int> { NpgsqlDbType = NpgsqlDbType.Integer, TypedValue = placeId });
        query.Parameters.Add(new NpgsqlParameter<DateOnly> { NpgsqlDbType = NpgsqlDbType.Date, TypedValue = from });
        query.Parameters.Add(new NpgsqlParameter<DateOnly> { NpgsqlDbType = NpgsqlDbType.Date, TypedValue = to });
        await query.PrepareAsync(ct);
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
        // Short on both ends: a readiness probe that hangs is worse than one that says no.
        using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
        timeout.CancelAfter(PingTimeout);
        await using var connection = await dataSource.OpenConnectionAsync(timeout.Token);
        await using var ping = new NpgsqlCommand("SELECT count(*) FROM schema_migrations", connection) { CommandTimeout = (int)PingTimeout.TotalSeconds };
        return await ping.ExecuteScalarAsync(timeout.Token) is long;
    }

    private static readonly TimeSpan PingTimeout = TimeSpan.FromSeconds(2);

    private static NpgsqlParameter<string> Text(string value) => new() { NpgsqlDbType = NpgsqlDbType.Text, TypedValue = value };

    private static NpgsqlParameter NullableText(string? value) =>
        new() { NpgsqlDbType = NpgsqlDbType.Text, Value = (object?)value ?? DBNull.Value };

    private static NpgsqlParameter<long> Instant(DateTimeOffset value) =>
        new() { NpgsqlDbType = NpgsqlDbType.Bigint, TypedValue = value.ToUnixTimeSeconds() };

    private static class Sql
    {
        public const string Reserve = "SELECT o_status, o_code, o_replayed FROM slots_reserve($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)";

        public const string Cancel = "SELECT slots_cancel($1, $2, $3, $4)";

        public const string Reschedule = "SELECT slots_reschedule($1, $2, $3, $4, $5, $6, $7)";

        public const string Find = """
            SELECT place_id, day, start_minute, minutes, seat_no, phone, person_hash, name, language, created_at
            FROM hot_reservations WHERE code = $1
            """;

        // One range read over the primary key (place, day, time, seat).
        public const string Availability = """
            SELECT day, start_minute, min(minutes), count(*)::integer, (count(*) FILTER (WHERE code IS NULL))::integer, min(starts_at)
            FROM hot_seats
            WHERE place_id = $1 AND day >= $2 AND day <= $3
            GROUP BY day, start_minute
            ORDER BY day, start_minute
            """;
    }
}
