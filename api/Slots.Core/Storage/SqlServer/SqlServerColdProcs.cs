using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>What a cold write proc answered: its @route and @outcome numbers, and for reserve @code and @replayed.</summary>
public readonly record struct ColdProcAnswer(int Route, int Outcome, string? Code = null, bool Replayed = false);

/// <summary>
/// One call of each cold-path proc (sql/040-045), answering the raw numbers. The seam between
/// <see cref="SqlServerColdReservationStore"/>'s retries and mapping and the server, so both are
/// tested without one.
/// </summary>
public interface ISqlServerColdProcs
{
    ValueTask<ColdProcAnswer> ReserveAsync(ReserveCommand c, CancellationToken ct);

    ValueTask<ColdProcAnswer> CancelAsync(CancelCommand c, CancellationToken ct);

    ValueTask<ColdProcAnswer> RescheduleAsync(RescheduleCommand c, CancellationToken ct);

    Task<ReservationDetails?> FindAsync(string code, CancellationToken ct);

    /// <summary>The stored horizon (null for an unknown place) and the cold slots of [from, to].</summary>
    Task<(DateOnly? Horizon, IReadOnlyList<SlotAvailability> Slots)> AvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct);

    Task<DateOnly?> HorizonAsync(int placeId, CancellationToken ct);
}

/// <summary>
/// The cold-path procs through SqlClient: one stored-procedure command per operation, one round
/// trip, every parameter typed and sized as the procs declare it.
/// </summary>
public sealed class SqlServerColdProcs(SqlServerConnectionString connectionString) : ISqlServerColdProcs
{
    // Column sizes, as declared in sql/004..009.
    private const int CodeSize = 16, PersonSize = 64, PhoneSize = 16, NameSize = 100, LanguageSize = 8, KeySize = 100, FingerprintSize = 64;

    public async ValueTask<ColdProcAnswer> ReserveAsync(ReserveCommand c, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = Proc(connection, "dbo.cold_reserve");
        Add(proc, "@place_id", SqlDbType.Int, 0, c.Slot.PlaceId);
        Add(proc, "@day", SqlDbType.Date, 0, c.Slot.Day.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@start_minute", SqlDbType.Int, 0, c.Slot.StartMinute);
        Add(proc, "@person_hash", SqlDbType.VarChar, PersonSize, c.PersonHash);
        Add(proc, "@phone", SqlDbType.VarChar, PhoneSize, c.Phone);
        Add(proc, "@name", SqlDbType.NVarChar, NameSize, c.Name);
        Add(proc, "@language", SqlDbType.VarChar, LanguageSize, c.Language);
        Add(proc, "@new_code", SqlDbType.VarChar, CodeSize, c.NewCode);
        Add(proc, "@idempotency_key", SqlDbType.VarChar, KeySize, c.IdempotencyKey);
        Add(proc, "@fingerprint", SqlDbType.VarChar, FingerprintSize, c.Fingerprint);
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        var route = Output(proc, "@route", SqlDbType.Int, 0);
        var outcome = Output(proc, "@outcome", SqlDbType.Int, 0);
        var code = Output(proc, "@code", SqlDbType.VarChar, CodeSize);
        var replayed = Output(proc, "@replayed", SqlDbType.Bit, 0);
        await proc.ExecuteNonQueryAsync(ct);
        return new ColdProcAnswer(Number(route), Number(outcome), code.Value as string, replayed.Value is true);
    }

    public async ValueTask<ColdProcAnswer> CancelAsync(CancelCommand c, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = Proc(connection, "dbo.cold_cancel");
        AddProof(proc, c.Code, c.Proof);
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        var route = Output(proc, "@route", SqlDbType.Int, 0);
        var outcome = Output(proc, "@outcome", SqlDbType.Int, 0);
        await proc.ExecuteNonQueryAsync(ct);
        return new ColdProcAnswer(Number(route), Number(outcome));
    }

    public async ValueTask<ColdProcAnswer> RescheduleAsync(RescheduleCommand c, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = Proc(connection, "dbo.cold_reschedule");
        AddProof(proc, c.Code, c.Proof);
        Add(proc, "@to_place_id", SqlDbType.Int, 0, c.Target.PlaceId);
        Add(proc, "@to_day", SqlDbType.Date, 0, c.Target.Day.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@to_start_minute", SqlDbType.Int, 0, c.Target.StartMinute);
        Add(proc, "@now", SqlDbType.BigInt, 0, c.Now.ToUnixTimeSeconds());
        var route = Output(proc, "@route", SqlDbType.Int, 0);
        var outcome = Output(proc, "@outcome", SqlDbType.Int, 0);
        await proc.ExecuteNonQueryAsync(ct);
        return new ColdProcAnswer(Number(route), Number(outcome));
    }

    public async Task<ReservationDetails?> FindAsync(string code, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = Proc(connection, "dbo.cold_find_reservation");
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

    public async Task<(DateOnly? Horizon, IReadOnlyList<SlotAvailability> Slots)> AvailabilityAsync(
        int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = Proc(connection, "dbo.cold_availability");
        Add(proc, "@place_id", SqlDbType.Int, 0, placeId);
        Add(proc, "@from", SqlDbType.Date, 0, from.ToDateTime(TimeOnly.MinValue));
        Add(proc, "@to", SqlDbType.Date, 0, to.ToDateTime(TimeOnly.MinValue));
        var horizon = Output(proc, "@horizon", SqlDbType.Date, 0);
        var slots = new List<SlotAvailability>();
        await using (var row = await proc.ExecuteReaderAsync(ct))
        {
            while (await row.ReadAsync(ct))
            {
                slots.Add(new SlotAvailability(
                    new SlotKey(placeId, DateOnly.FromDateTime(row.GetDateTime(0)), row.GetInt32(1)),
                    row.GetInt32(2), row.GetInt32(3), row.GetInt32(4), row.GetInt64(5)));
            }
        }
        // Output parameters are set once the reader is closed.
        return (horizon.Value is DateTime day ? DateOnly.FromDateTime(day) : null, slots);
    }

    public async Task<DateOnly?> HorizonAsync(int placeId, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = Proc(connection, "dbo.cold_horizon");
        Add(proc, "@place_id", SqlDbType.Int, 0, placeId);
        var horizon = Output(proc, "@horizon", SqlDbType.Date, 0);
        await proc.ExecuteNonQueryAsync(ct);
        return horizon.Value is DateTime day ? DateOnly.FromDateTime(day) : null;
    }

    /// <summary>An output number; -1 when the proc left it NULL, which the mapping refuses as unknown.</summary>
    private static int Number(SqlParameter output) => output.Value as int? ?? -1;

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }

    private static SqlCommand Proc(SqlConnection connection, string name) =>
        new(name, connection) { CommandType = CommandType.StoredProcedure };

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
