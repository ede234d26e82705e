using System.Data;
using System.Text.Json;
using Microsoft.Data.SqlClient;
using Slots.Reservations;
using Slots.Sms;
using Slots.Storage;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer;

/// <summary>
/// SQL Server: interpreted T-SQL against the memory-optimized outbox with WITH (SNAPSHOT) (the
/// hint memory-optimized tables need outside a native proc under READ COMMITTED), in batches;
/// sms_sent is a disk table. Not run by the tests here (no SQL Server on the CI machine).
/// </summary>
public sealed class SqlServerSmsStore(SqlServerConnectionString connectionString) : ISmsStore
{
    private const int DuplicateKey = 2627;

    /// <summary>The claim's statements, public so the tests parse each one.</summary>
    public static class Sql
    {
        /// <summary>
        /// One transaction: the message's row read under a key-range update lock (so two claimers of one
        /// message queue here), then a new claim, or a claim that ran out taken over; answers 1 Claimed,
        /// 2 Sent, 3 HeldElsewhere (SmsClaimResult).
        /// </summary>
        public const string Claim = """
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            DECLARE @status int = NULL, @at bigint = NULL, @result int;
            SELECT @status = status, @at = sent_at FROM dbo.sms_sent WITH (UPDLOCK, HOLDLOCK) WHERE message_id = @id;
            IF @status IS NULL
            BEGIN
                INSERT dbo.sms_sent (message_id, kind, code, status, tries, sent_at, claim) VALUES (@id, @kind, @code, 3, 0, @now, @claim);
                SET @result = 1;
            END
            ELSE IF @status = 3 AND @at <= @now - @lease
            BEGIN
                UPDATE dbo.sms_sent SET sent_at = @now, claim = @claim WHERE message_id = @id;
                SET @result = 1;
            END
            ELSE
                SET @result = IIF(@status = 3, 3, 2);
            COMMIT TRANSACTION;
            SELECT @result;
            """;

        /// <summary>Gives up this consumer's own claim, and nothing else.</summary>
        public const string Release = "DELETE dbo.sms_sent WHERE message_id = @id AND status = 3 AND claim = @claim;";

        /// <summary>The send's record in place of a claim; a record already there stays.</summary>
        public const string Record = """
            UPDATE dbo.sms_sent SET status = @status, tries = @tries, sent_at = @at, claim = NULL
            WHERE message_id = @id AND status = 3;
            IF @@ROWCOUNT = 0
                INSERT dbo.sms_sent (message_id, kind, code, status, tries, sent_at)
                SELECT @id, @kind, @code, @status, @tries, @at
                WHERE NOT EXISTS (SELECT 1 FROM dbo.sms_sent WHERE message_id = @id);
            """;
    }

    public async Task<IReadOnlyList<OutboxRow>> ReadUnsentAsync(int max, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        // (sent_at, id) puts the unsent rows (NULL first) at the front of the range index, in id order.
        await using var read = new SqlCommand("""
            SELECT TOP (@max) id, kind, code, phone, language, place_id, day, start_minute, note
            FROM dbo.outbox WITH (SNAPSHOT) WHERE sent_at IS NULL ORDER BY sent_at, id
            """, connection);
        read.Parameters.Add("@max", SqlDbType.Int).Value = max;
        var rows = new List<OutboxRow>();
        await using var row = await read.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            rows.Add(new OutboxRow(row.GetInt64(0), (ChangeKind)row.GetInt32(1), row.GetString(2), row.GetString(3), row.GetString(4),
                row.GetInt32(5), DateOnly.FromDateTime(row.GetDateTime(6)), row.GetInt32(7), row.IsDBNull(8) ? null : row.GetString(8)));
        }
        return rows;
    }

    public async Task MarkSentAsync(IReadOnlyCollection<long> ids, long now, CancellationToken ct)
    {
        if (ids.Count == 0)
        {
            return;
        }
        await using var connection = await OpenAsync(ct);
        await using var mark = new SqlCommand("""
            UPDATE dbo.outbox WITH (SNAPSHOT) SET sent_at = @now
            WHERE id IN (SELECT CAST(value AS bigint) FROM OPENJSON(@ids)) AND sent_at IS NULL
            """, connection);
        mark.Parameters.Add("@now", SqlDbType.BigInt).Value = now;
        mark.Parameters.Add("@ids", SqlDbType.NVarChar, -1).Value = JsonSerializer.Serialize(ids.ToArray(), SmsStoreJson.Default.Int64Array);
        await mark.ExecuteNonQueryAsync(ct);
    }

    public async Task<bool> WasSentAsync(long messageId, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var find = new SqlCommand("SELECT 1 FROM dbo.sms_sent WHERE message_id = @id AND status <> 3", connection);
        find.Parameters.Add("@id", SqlDbType.BigInt).Value = messageId;
        return await find.ExecuteScalarAsync(ct) is not null;
    }

    public async Task<SmsClaimResult> ClaimAsync(SmsClaim claim, long leaseSeconds, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var take = new SqlCommand(Sql.Claim, connection);
        take.Parameters.Add("@id", SqlDbType.BigInt).Value = claim.MessageId;
        take.Parameters.Add("@kind", SqlDbType.Int).Value = (int)claim.Kind;
        take.Parameters.Add("@code", SqlDbType.VarChar, 16).Value = claim.Code;
        take.Parameters.Add("@now", SqlDbType.BigInt).Value = claim.At;
        take.Parameters.Add("@claim", SqlDbType.VarChar, 32).Value = claim.Token;
        take.Parameters.Add("@lease", SqlDbType.BigInt).Value = leaseSeconds;
        return (SmsClaimResult)(int)(await take.ExecuteScalarAsync(ct))!;
    }

    public async Task ReleaseAsync(SmsClaim claim, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var release = new SqlCommand(Sql.Release, connection);
        release.Parameters.Add("@id", SqlDbType.BigInt).Value = claim.MessageId;
        release.Parameters.Add("@claim", SqlDbType.VarChar, 32).Value = claim.Token;
        await release.ExecuteNonQueryAsync(ct);
    }

    public async Task RecordSentAsync(SmsSendRecord record, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var insert = new SqlCommand(Sql.Record, connection);
        insert.Parameters.Add("@id", SqlDbType.BigInt).Value = record.MessageId;
        insert.Parameters.Add("@kind", SqlDbType.Int).Value = (int)record.Kind;
        insert.Parameters.Add("@code", SqlDbType.VarChar, 16).Value = record.Code;
        insert.Parameters.Add("@status", SqlDbType.Int).Value = (int)record.Status;
        insert.Parameters.Add("@tries", SqlDbType.Int).Value = record.Tries;
        insert.Parameters.Add("@at", SqlDbType.BigInt).Value = record.SentAt;
        try
        {
            await insert.ExecuteNonQueryAsync(ct);
        }
        catch (SqlException ex) when (ex.Number == DuplicateKey)
        {
            // A racing redelivery recorded it first; the record stands.
        }
    }

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}

[System.Text.Json.Serialization.JsonSerializable(typeof(long[]))]
internal sealed partial class SmsStoreJson : System.Text.Json.Serialization.JsonSerializerContext;
