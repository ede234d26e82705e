using Microsoft.Data.SqlClient;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The audit row of a booking site staff made on someone's behalf (a walk-in), on SQL Server. The
/// native dbo.reserve and the cold dbo.cold_reserve take no author yet, so dbo.record_walk_in writes
/// the row right after the booking, in its own statement, not in the booking's transaction as on
/// PostgreSQL and SQLite; and the confirmation SMS always goes (docs/sqlserver.md says what moving
/// both in needs).
/// </summary>
internal static class SqlServerWalkIns
{
    public static async Task RecordAsync(string connectionString, ReserveCommand c, ReserveResult? result, CancellationToken ct)
    {
        if (c.BookedBy is null || result is not { Status: ReservationStatus.Reserved, Replayed: false, Code: { } code })
        {
            return;
        }
        await using var connection = new SqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var proc = SqlServerCommands.RecordWalkIn(c, code).On(connection);
        await proc.ExecuteNonQueryAsync(ct);
    }
}
