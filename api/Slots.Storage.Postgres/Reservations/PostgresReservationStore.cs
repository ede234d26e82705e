using System.Runtime.CompilerServices;
using Npgsql;
using NpgsqlTypes;
using Slots.Reservations;
using Slots.Storage.Ef;

namespace Slots.Storage.Postgres;

/// <summary>
/// The hot path on PostgreSQL. Writes go through the instance's <see cref="PostgresBatcher"/>:
/// many operations per call and commit, decided set-based by slots_apply
/// (Schema/Functions/slots_apply.sql), safe under READ COMMITTED however many API instances
/// run. Reads are single prepared statements on the pooled data source.
/// </summary>
public sealed class PostgresReservationStore(NpgsqlDataSource dataSource, PostgresBatcher batcher) : IReservationStore
{
    public async ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct)
    {
        var applied = await batcher.ReserveAsync(command);
        return applied.Status == 0
            ? null // the key was used before for a different request
            : new ReserveResult((ReservationStatus)applied.Status, applied.Code, applied.Replayed, applied.Minutes, applied.Detail ?? 0,
                applied.Second);
    }

    public async ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) =>
        (CancelStatus)(await batcher.CancelAsync(command)).Status;

    public async ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) =>
        (RescheduleStatus)(await batcher.RescheduleAsync(command)).Status;

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
        var details = StorageRows.Details(row, code);
        return details with { Slot = details.Slot with { ServiceId = row.GetInt32(10) } };
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
            var slot = StorageRows.Availability(row, placeId);
            slots.Add(slot with { Slot = slot.Slot with { ServiceId = row.GetInt32(6) } });
        }
        return slots;
    }

    public IAsyncEnumerable<SlotAvailability>? EveryPlace(DateOnly from, DateOnly to) => EveryPlaceAsync(from, to, CancellationToken.None);

    private async IAsyncEnumerable<SlotAvailability> EveryPlaceAsync(DateOnly from, DateOnly to, [EnumeratorCancellation] CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var query = new NpgsqlCommand(StorageRows.EveryPlaceSql, connection);
        query.Parameters.Add(new NpgsqlParameter<DateOnly>("from", NpgsqlDbType.Date) { TypedValue = from });
        query.Parameters.Add(new NpgsqlParameter<DateOnly>("to", NpgsqlDbType.Date) { TypedValue = to });
        await using var row = await query.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            yield return StorageRows.AvailabilityOfAnyPlace(row);
        }
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

    private static class Sql
    {
        public const string Find = """
            SELECT place_id, day, start_minute, minutes, seat_no, phone, person_hash, name, language, created_at, service_id
            FROM hot_reservations WHERE code = $1
            """;

        // One range read over the primary key (place, day, time, service, seat): every service of the
        // place, each slot its own row (Core picks the service asked for).
        public const string Availability = """
            SELECT day, start_minute, min(minutes), count(*)::integer, (count(*) FILTER (WHERE code IS NULL AND hold = 0))::integer, min(starts_at),
                   service_id
            FROM hot_seats
            WHERE place_id = $1 AND day >= $2 AND day <= $3
            GROUP BY day, start_minute, service_id
            ORDER BY day, start_minute, service_id
            """;
    }
}
