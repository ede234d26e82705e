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

    /// <summary>dbo.cold_was_cancelled: whether the code was cancelled by the proof's owner.</summary>
    Task<bool> WasCancelledAsync(CancelCommand c, CancellationToken ct);

    /// <summary>The stored horizon (null for an unknown place) and the cold slots of [from, to].</summary>
    Task<(DateOnly? Horizon, IReadOnlyList<SlotAvailability> Slots)> AvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct);

    Task<DateOnly?> HorizonAsync(int placeId, CancellationToken ct);
}

/// <summary>
/// The cold-path procs through SqlClient: one stored-procedure command per operation
/// (<see cref="SqlServerCommands"/>), one round trip, every parameter typed and sized as the procs declare it.
/// </summary>
public sealed class SqlServerColdProcs(SqlServerConnectionString connectionString) : ISqlServerColdProcs
{
    public async ValueTask<ColdProcAnswer> ReserveAsync(ReserveCommand c, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = SqlServerCommands.ColdReserve(c).On(connection);
        await proc.ExecuteNonQueryAsync(ct);
        return new ColdProcAnswer(Number(proc, "@route"), Number(proc, "@outcome"), proc.Out("@code") as string, proc.Out("@replayed") is true);
    }

    public async ValueTask<ColdProcAnswer> CancelAsync(CancelCommand c, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = SqlServerCommands.ColdCancel(c).On(connection);
        await proc.ExecuteNonQueryAsync(ct);
        return new ColdProcAnswer(Number(proc, "@route"), Number(proc, "@outcome"));
    }

    public async ValueTask<ColdProcAnswer> RescheduleAsync(RescheduleCommand c, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = SqlServerCommands.ColdReschedule(c).On(connection);
        await proc.ExecuteNonQueryAsync(ct);
        return new ColdProcAnswer(Number(proc, "@route"), Number(proc, "@outcome"));
    }

    public async Task<bool> WasCancelledAsync(CancelCommand c, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = SqlServerCommands.ColdWasCancelled(c).On(connection);
        await proc.ExecuteNonQueryAsync(ct);
        return (int)proc.Parameters["@cancelled"].Value == 1;
    }

    public async Task<ReservationDetails?> FindAsync(string code, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = SqlServerCommands.ColdFindReservation(code).On(connection);
        await using var row = await proc.ExecuteReaderAsync(CommandBehavior.SingleRow, ct);
        return await row.ReadAsync(ct) ? SqlServerCommands.ReadDetails(row, code) : null;
    }

    public async Task<(DateOnly? Horizon, IReadOnlyList<SlotAvailability> Slots)> AvailabilityAsync(
        int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = SqlServerCommands.ColdAvailability(placeId, from, to).On(connection);
        var slots = new List<SlotAvailability>();
        await using (var row = await proc.ExecuteReaderAsync(ct))
        {
            while (await row.ReadAsync(ct))
            {
                slots.Add(SqlServerCommands.ReadSlot(row, placeId));
            }
        }
        // Output parameters are set once the reader is closed.
        return (Day(proc.Out("@horizon")), slots);
    }

    public async Task<DateOnly?> HorizonAsync(int placeId, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = SqlServerCommands.ColdHorizon(placeId).On(connection);
        await proc.ExecuteNonQueryAsync(ct);
        return Day(proc.Out("@horizon"));
    }

    /// <summary>An output number; -1 when the proc left it NULL, which the mapping refuses as unknown.</summary>
    private static int Number(SqlCommand proc, string name) => proc.Out(name) as int? ?? -1;

    private static DateOnly? Day(object? value) => value is DateTime day ? DateOnly.FromDateTime(day) : null;

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}
