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
    /// <summary>What reserve retries: conflicts, and a duplicate idempotency key (the retry replays the winner's answer).</summary>
    public static readonly IReadOnlySet<int> ReserveRetryOn = new HashSet<int>([.. SqlServerErrors.Conflicts, .. SqlServerErrors.DuplicateKey]);

    public ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = SqlServerCommands.Reserve(command).On(connection);
            await proc.ExecuteNonQueryAsync(token);
            return SqlServerOutcomes.Reserve((int)proc.Out("@outcome")!, proc.Out("@code") as string, proc.Out("@replayed") is true);
        }, ReserveRetryOn, static () => new ReserveResult(ReservationStatus.SlotFull, null), ct);

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
            await using var proc = SqlServerCommands.ReserveBatch(commands).On(connection);
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
}

/// <summary>The resolved SQL Server connection string.</summary>
public sealed record SqlServerConnectionString(string Value);
