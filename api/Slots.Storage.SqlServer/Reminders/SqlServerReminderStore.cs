using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Reminders;

namespace Slots.Storage.SqlServer;

/// <summary>
/// Day-before reminders on SQL Server: one interpreted batch (<see cref="Sql.Queue"/>) records a
/// batch of the day's taken seats with no reminder for their start yet (dbo.reminders, sql/070) and
/// queues their SMS in the same transaction, as the EF store does on SQLite and PostgreSQL. The hot
/// tables are read WITH (SNAPSHOT) beside the disk table. Not executed on the build machines (no
/// SQL Server there): the statement is parse-checked by tests/Slots.SqlServer.Tests.
/// </summary>
public sealed class SqlServerReminderStore(SqlServerConnectionString connectionString, SqlServerRetryPolicy retry) : IReminderStore
{
    /// <summary>The statements this store sends, public so the tests parse each one.</summary>
    public static class Sql
    {
        public const string Queue = """
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            INSERT dbo.reminders (code, starts_at, place_id, day, queued_at, batch)
            SELECT TOP (@batch) s.code, s.starts_at, s.place_id, s.day, @now, @id
            FROM dbo.hot_seats s WITH (SNAPSHOT)
            JOIN dbo.hot_reservations b WITH (SNAPSHOT) ON b.code = s.code
            WHERE s.place_id = @place_id AND s.day = @day AND s.starts_at > @now
              AND NOT EXISTS (SELECT 1 FROM dbo.reminders r WITH (UPDLOCK, HOLDLOCK) WHERE r.code = s.code AND r.starts_at = s.starts_at)
            ORDER BY s.start_minute, s.seat_no;
            DECLARE @taken int = @@ROWCOUNT;
            INSERT dbo.outbox WITH (SNAPSHOT) (kind, code, phone, language, place_id, day, start_minute, created_at)
            SELECT 5, h.code, h.phone, h.language, h.place_id, h.day, h.start_minute, @now
            FROM dbo.reminders r
            JOIN dbo.hot_reservations h WITH (SNAPSHOT) ON h.code = r.code AND h.starts_at = r.starts_at
            WHERE r.batch = @id
            ORDER BY h.start_minute, h.seat_no;
            COMMIT TRANSACTION;
            SELECT @taken;
            """;

        public const string ForgetBefore = "DELETE FROM dbo.reminders WHERE day < @day;";
    }

    public async Task<int> ForgetBeforeAsync(DateOnly day, CancellationToken ct)
    {
        await using var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        await using var forget = new SqlCommand(Sql.ForgetBefore, connection);
        forget.Parameters.Add("@day", SqlDbType.Date).Value = day.ToDateTime(TimeOnly.MinValue);
        return await forget.ExecuteNonQueryAsync(ct);
    }

    public async Task<int> QueueAsync(int placeId, DateOnly day, DateTimeOffset now, int batch, CancellationToken ct) =>
        await retry.ExecuteAsync(async token =>
        {
            await using var connection = new SqlConnection(connectionString.Value);
            await connection.OpenAsync(token);
            await using var queue = new SqlCommand(Sql.Queue, connection);
            queue.Parameters.Add("@batch", SqlDbType.Int).Value = batch;
            queue.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
            queue.Parameters.Add("@id", SqlDbType.BigInt).Value = Random.Shared.NextInt64(1, long.MaxValue);
            queue.Parameters.Add("@place_id", SqlDbType.Int).Value = placeId;
            queue.Parameters.Add("@day", SqlDbType.Date).Value = day.ToDateTime(TimeOnly.MinValue);
            return (int)(await queue.ExecuteScalarAsync(token))!;
        }, SqlServerStaffStore.CheckInRetryOn, exhausted: null, ct);
}
