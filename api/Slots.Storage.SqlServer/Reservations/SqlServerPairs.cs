using Microsoft.Data.SqlClient;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>
/// Pairs on SQL Server: one call of dbo.reserve_pair, one transaction, whichever side of the window
/// the first dose is on (the proc books it through dbo.reserve or dbo.cold_reserve and seats the
/// second, hot or on disk, before it commits). The second dose usually lies on the disk tables,
/// beyond what the native batch can reach, so a pair is not part of dbo.reserve_batch.
/// </summary>
internal static class SqlServerPairs
{
    public static async ValueTask<ReserveResult?> ReserveAsync(string connectionString, ReserveCommand command, CancellationToken ct)
    {
        await using var connection = new SqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var proc = SqlServerCommands.ReservePair(command).On(connection);
        await proc.ExecuteNonQueryAsync(ct);
        var outcome = (int)proc.Out("@outcome")!;
        if (outcome == (int)ReservationStatus.SecondDoseFull)
        {
            return new ReserveResult(ReservationStatus.SecondDoseFull, null);
        }
        var result = SqlServerOutcomes.Reserve(outcome, proc.Out("@code") as string, proc.Out("@replayed") is true);
        return result is { Status: ReservationStatus.Reserved, Replayed: false } booked && proc.Out("@day2") is DateTime day2
            ? booked with { Second = new SecondDose(command.SecondCode!, DateOnly.FromDateTime(day2), command.Second!.StartMinute, (int)proc.Out("@minutes2")!) }
            : result;
    }
}
