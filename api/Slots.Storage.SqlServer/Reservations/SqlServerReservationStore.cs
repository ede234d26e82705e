using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The production hot path on natively compiled procs: reservations go through the instance's
/// <see cref="SqlServerBatcher"/> (many per dbo.reserve_batch call, one round trip, one atomic
/// block), cancellations and reschedules one proc call each. Connections come from SqlClient's
/// pool; every parameter has its SQL type and size, so plans and the wire format never depend on
/// the values.
/// </summary>
public sealed class SqlServerReservationStore(SqlServerConnectionString connectionString, SqlServerRetryPolicy retry, SqlServerBatcher batcher)
    : IReservationStore
{
    /// <summary>dbo.reserve (native) does not read the service's rule yet: the service decides it from its cached copy first.</summary>
    public bool DecidesEligibility => false;

    /// <summary>What reserve retries: conflicts, and a duplicate idempotency key (the retry replays the winner's answer).</summary>
    public static readonly IReadOnlySet<int> ReserveRetryOn = new HashSet<int>([.. SqlServerErrors.Conflicts, .. SqlServerErrors.DuplicateKey]);

    /// <summary>
    /// The batcher has already retried and split the batch down to this reservation alone; what
    /// still conflicts is retried here with back-off, as a single proc call was, and after the
    /// attempts the seat was seen taken each time: SlotFull.
    /// </summary>
    public async ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct)
    {
        var result = command.Second is null
            ? await retry.ExecuteAsync(_ => new ValueTask<ReserveResult?>(batcher.ReserveAsync(command)), ReserveRetryOn,
                static () => new ReserveResult(ReservationStatus.SlotFull, null), ct)
            : await retry.ExecuteAsync(token => SqlServerPairs.ReserveAsync(connectionString.Value, command, token), ReserveRetryOn,
                static () => new ReserveResult(ReservationStatus.SlotFull, null), ct);
        await SqlServerWalkIns.RecordAsync(connectionString.Value, command, result, ct);
        return result;
    }

    public ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = SqlServerCommands.Cancel(command).On(connection);
            await proc.ExecuteNonQueryAsync(token);
            return SqlServerOutcomes.Cancel((int)proc.Out("@outcome")!);
        }, SqlServerErrors.Conflicts, exhausted: null, ct);

    public ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = SqlServerCommands.Reschedule(command).On(connection);
            await proc.ExecuteNonQueryAsync(token);
            return SqlServerOutcomes.Reschedule((int)proc.Out("@outcome")!);
        }, SqlServerErrors.Conflicts, static () => RescheduleStatus.SlotFull, ct);

    public async Task<ReservationDetails?> FindAsync(string code, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = SqlServerCommands.FindReservation(code).On(connection);
        await using var row = await proc.ExecuteReaderAsync(CommandBehavior.SingleRow, ct);
        return await row.ReadAsync(ct) ? SqlServerCommands.ReadDetails(row, code) : null;
    }

    public async Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = SqlServerCommands.Availability(placeId, from, to).On(connection);
        var slots = new List<SlotAvailability>();
        await using var row = await proc.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            slots.Add(SqlServerCommands.ReadSlot(row, placeId));
        }
        return slots;
    }

    public async Task<bool> PingAsync(CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var ping = SqlServerCommands.Ping().On(connection);
        return await ping.ExecuteScalarAsync(ct) is int;
    }

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}

/// <summary>The resolved SQL Server connection string.</summary>
public sealed record SqlServerConnectionString(string Value);
