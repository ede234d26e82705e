using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The production hot path: one natively compiled proc call per operation, one round trip, one
/// atomic block. Connections come from SqlClient's pool; every parameter has its SQL type and
/// size, so plans and the wire format never depend on the values.
/// </summary>
public sealed class SqlServerReservationStore(SqlServerConnectionString connectionString, SqlServerRetryPolicy retry) : IReservationStore
{
    // Column sizes, as declared in sql/004..011.
    private const int CodeSize = 16, PersonSize = 64, PhoneSize = 16, NameSize = 100, LanguageSize = 8, KeySize = 100, FingerprintSize = 64;

    /// <summary>What reserve retries: conflicts, and a duplicate idempotency key (the retry replays the winner's answer).</summary>
    public static readonly IReadOnlySet<int> ReserveRetryOn = new HashSet<int>([.. SqlServerErrors.Conflicts, .. SqlServerErrors.DuplicateKey]);

    public ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = Proc(connection, "dbo.reserve");
            AddSlot(proc, command.Slot);
            Add(proc, "@person_hash", SqlDbType.VarChar, PersonSize, command.PersonHash);
            Add(proc, "@phone", SqlDbType.VarChar, PhoneSize, command.Phone);
            Add(proc, "@name", SqlDbType.NVarChar, NameSize, command.Name);
            Add(proc, "@language", SqlDbType.VarChar, LanguageSize, command.Language);
            Add(proc, "@new_code", SqlDbType.VarChar, CodeSize, command.NewCode);
            Add(proc, "@seat_hint", SqlDbType.Int, 0, SqlServerOutcomes.SeatHint(command.NewCode));
            Add(proc, "@idempotency_key", SqlDbType.VarChar, KeySize, command.IdempotencyKey);
            Add(proc, "@fingerprint", SqlDbType.VarChar, FingerprintSize, command.Fingerprint);
            Add(proc, "@now", SqlDbType.BigInt, 0, command.Now.ToUnixTimeSeconds());
            var outcome = Output(proc, "@outcome", SqlDbType.Int, 0);
            var code = Output(proc, "@code", SqlDbType.VarChar, CodeSize);
            var replayed = Output(proc, "@replayed", SqlDbType.Bit, 0);
            await proc.ExecuteNonQueryAsync(token);
            return SqlServerOutcomes.Reserve((int)outcome.Value, code.Value as string, replayed.Value is true);
        }, ReserveRetryOn, static () => new ReserveResult(ReservationStatus.SlotFull, null), ct);

    public ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = Proc(connection, "dbo.cancel");
            AddProof(proc, command.Code, command.Proof);
            Add(proc, "@now", SqlDbType.BigInt, 0, command.Now.ToUnixTimeSeconds());
            var outcome = Output(proc, "@outcome", SqlDbType.Int, 0);
            await proc.ExecuteNonQueryAsync(token);
            return SqlServerOutcomes.Cancel((int)outcome.Value);
        }, SqlServerErrors.Conflicts, exhausted: null, ct);

    public ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = Proc(connection, "dbo.reschedule");
            AddProof(proc, command.Code, command.Proof);
            Add(proc, "@to_place_id", SqlDbType.Int, 0, command.Target.PlaceId);
            Add(proc, "@to_day", SqlDbType.Date, 0, command.Target.Day.ToDateTime(TimeOnly.MinValue));
            Add(proc, "@to_start_minute", SqlDbType.Int, 0, command.Target.StartMinute);
            Add(proc, "@seat_hint", SqlDbType.Int, 0, SqlServerOutcomes.SeatHint(command.Code));
            Add(proc, "@now", SqlDbType.BigInt, 0, command.Now.ToUnixTimeSeconds());
            var outcome = Output(proc, "@outcome", SqlDbType.Int, 0);
            await proc.ExecuteNonQueryAsync(token);
            return SqlServerOutcomes.Reschedule((int)outcome.Value);
        }, SqlServerErrors.Conflicts, static () => RescheduleStatus.SlotFull, ct);

    /// <summary>
    /// Many reservations in one round trip and one commit (dbo.reserve_batch). Answers are in
    /// the commands' order; a conflict anywhere retries the whole batch, and after the retries
    /// every proc is answered SlotFull.
    /// </summary>
    public ValueTask<IReadOnlyList<ReserveResult?>> ReserveBatchAsync(IReadOnlyList<ReserveCommand> commands, CancellationToken ct) =>
        commands.Count == 0 // SqlClient refuses a table-valued parameter without rows
            ? ValueTask.FromResult<IReadOnlyList<ReserveResult?>>([])
            : retry.ExecuteAsync<IReadOnlyList<ReserveResult?>>(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = Proc(connection, "dbo.reserve_batch");
            var requests = proc.Parameters.Add("@requests", SqlDbType.Structured);
            requests.TypeName = "dbo.reserve_request";
            requests.Value = ReserveRequestRows.From(commands);
            Add(proc, "@now", SqlDbType.BigInt, 0, commands[0].Now.ToUnixTimeSeconds());
            var answers = new ReserveResult?[commands.Count];
            await using var row = await proc.ExecuteReaderAsync(token);
            while (await row.ReadAsync(token))
            {
                answers[row.GetInt32(0)] = SqlServerOutcomes.Reserve(
                    row.GetInt32(1), row.IsDBNull(2) ? null : row.GetString(2), row.GetBoolean(3));
            }
            return answers;
        }, ReserveRetryOn, () => Enumerable.Repeat<ReserveResult?>(new ReserveResult(ReservationStatus.SlotFull, null), commands.Count).ToArray(), ct);

    public async Task<ReservationDetails?> FindAsync(string code, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = Proc(connection, "dbo.find_reservation");
        Add(proc, "@code", SqlDbType.VarChar, CodeSize, code);
        await using var row = await proc.ExecuteReaderAsync(CommandBehavior.SingleRow, ct);
        if (!await row.ReadAsync(ct))
        {
            return null;
        }
        return new ReservationDetails(
            code,
            new SlotKey(row.GetInt32(0), DateOnly.FromDateTime(row.GetDateTime(1)), row.GetInt32(2)),
            row.GetInt32(3), row.GetInt32(4), row.GetString(5), row.GetString(6), row.GetString(7), row.GetString(8),
            DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(9)));
    }

    public async Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = Proc(connection, "dbo.availability");
        Add(proc, "@place_id", SqlDbType.Int, 0, placeId);
        Add(proc, "@from", SqlDbType.Date, 0, from.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@to", SqlDbType.Date, 0, to.ToDateTime(TimeOnly.MinValue));
        var slots = new List<SlotAvailability>();
        await using var row = await proc.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            slots.Add(new SlotAvailability(
                new SlotKey(placeId, DateOnly.FromDateTime(row.GetDateTime(0)), row.GetInt32(1)),
                row.GetInt32(2), row.GetInt32(3), row.GetInt32(4), row.GetInt64(5)));
        }
        return slots;
    }

    public async Task<bool> PingAsync(CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var ping = connection.CreateCommand();
        ping.CommandText = "SELECT COUNT(*) FROM dbo.schema_migrations";
        return await ping.ExecuteScalarAsync(ct) is int;
    }

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }

    private static SqlCommand Proc(SqlConnection connection, string name) =>
        new(name, connection) { CommandType = CommandType.StoredProcedure };

    private static void AddSlot(SqlCommand proc, SlotKey slot)
    {
        Add(proc, "@place_id", SqlDbType.Int, 0, slot.PlaceId);
        Add(proc, "@day", SqlDbType.Date, 0, slot.Day.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@start_minute", SqlDbType.Int, 0, slot.StartMinute);
    }

    private static void AddProof(SqlCommand proc, string code, ContactProof proof)
    {
        Add(proc, "@code", SqlDbType.VarChar, CodeSize, code);
        Add(proc, "@phone", SqlDbType.VarChar, PhoneSize, proof.Phone);
        Add(proc, "@person_hash", SqlDbType.VarChar, PersonSize, proof.PersonHash);
    }

    private static void Add(SqlCommand proc, string name, SqlDbType type, int size, object? value)
    {
        var parameter = proc.Parameters.Add(name, type);
        if (size > 0)
        {
            parameter.Size = size;
        }
        parameter.Value = value ?? DBNull.Value;
    }

    private static SqlParameter Output(SqlCommand proc, string name, SqlDbType type, int size)
    {
        var parameter = proc.Parameters.Add(name, type);
        if (size > 0)
        {
            parameter.Size = size;
        }
        parameter.Direction = ParameterDirection.Output;
        return parameter;
    }
}

/// <summary>The resolved SQL Server connection string.</summary>
public sealed record SqlServerConnectionString(string Value);
