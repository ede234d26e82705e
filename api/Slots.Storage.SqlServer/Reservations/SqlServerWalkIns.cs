using Microsoft.Data.SqlClient;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The audit row of a booking site staff made on someone's behalf (a walk-in), on SQL Server. The
/// native dbo.reserve and the cold dbo.cold_reserve take no author yet, so the row is written right
/// after the booking, in its own statement, not in the booking's transaction as on PostgreSQL and
/// SQLite; and the confirmation SMS always goes (docs/sqlserver.md says what moving both in needs).
/// </summary>
internal static class SqlServerWalkIns
{
    public static async Task RecordAsync(string connectionString, ReserveCommand c, ReserveResult? result, CancellationToken ct)
    {
        if (c.BookedBy is not { } by || result is not { Status: ReservationStatus.Reserved, Replayed: false, Code: { } code })
        {
            return;
        }
        await using var connection = new SqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var insert = new SqlCommand(
            "INSERT INTO dbo.staff_audit (at, actor, place_id, action, target, reason) VALUES (@at, @actor, @place, @action, @target, @reason)",
            connection);
        insert.Parameters.Add(new SqlParameter("@at", System.Data.SqlDbType.BigInt) { Value = c.Now.ToUnixTimeSeconds() });
        insert.Parameters.Add(new SqlParameter("@actor", System.Data.SqlDbType.NVarChar, 256) { Value = by });
        insert.Parameters.Add(new SqlParameter("@place", System.Data.SqlDbType.Int) { Value = c.Slot.PlaceId });
        insert.Parameters.Add(new SqlParameter("@action", System.Data.SqlDbType.VarChar, 64) { Value = Slots.Staff.AuditActions.WalkIn });
        insert.Parameters.Add(new SqlParameter("@target", System.Data.SqlDbType.NVarChar, 200) { Value = code });
        insert.Parameters.Add(new SqlParameter("@reason", System.Data.SqlDbType.NVarChar, 1000) { Value = "sms" });
        await insert.ExecuteNonQueryAsync(ct);
    }
}
