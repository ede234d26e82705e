using System.Text.Json;
using Microsoft.Data.Sqlite;
using Slots.Reservations;
using Slots.Sms;
using Slots.Storage;
using Slots.Storage.Sqlite;

namespace Slots.Storage.Sqlite;

/// <summary>
/// SQLite: reads on pooled connections (WAL), writes through the process's single writer, so
/// marking rows sent and recording sends join the reservations' group commit instead of
/// fighting them for the write lock.
/// </summary>
public sealed class SqliteSmsStore(SqliteWriter writer, SqliteConnectionString connectionString) : ISmsStore
{
    public async Task<IReadOnlyList<OutboxRow>> ReadUnsentAsync(int max, CancellationToken ct)
    {
        await using var connection = new SqliteConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        await using var read = connection.CreateCommand();
        // The outbox's unsent rows and the confirmations new bookings carry on their hot rows, one id counter for both.
        read.CommandText = """
            SELECT * FROM (SELECT id, kind, code, phone, language, place_id, day, start_minute, note
                           FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT $max)
            UNION ALL
            SELECT * FROM (SELECT event_id, 1, code, phone, language, place_id, day, start_minute, NULL
                           FROM hot_reservations WHERE sms_pending = 1 ORDER BY event_id LIMIT $max)
            ORDER BY 1 LIMIT $max
            """;
        read.Parameters.AddWithValue("$max", max);
        var rows = new List<OutboxRow>();
        await using var row = await read.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            rows.Add(new OutboxRow(row.GetInt64(0), (ChangeKind)row.GetInt32(1), row.GetString(2), row.GetString(3), row.GetString(4),
                row.GetInt32(5), row.GetFieldValue<DateOnly>(6), row.GetInt32(7), row.IsDBNull(8) ? null : row.GetString(8)));
        }
        return rows;
    }

    public async Task MarkSentAsync(IReadOnlyCollection<long> ids, long now, CancellationToken ct)
    {
        if (ids.Count == 0)
        {
            return;
        }
        var list = JsonSerializer.Serialize(ids.ToArray(), SmsStoreJson.Default.Int64Array);
        await writer.WriteAsync(hot =>
        {
            using var mark = hot.Connection.CreateCommand();
            mark.Transaction = hot.Transaction;
            // An id is in one of the two places (a hot row that went moved its SMS to the outbox).
            mark.CommandText = """
                UPDATE outbox SET sent_at = $now WHERE id IN (SELECT value FROM json_each($ids)) AND sent_at IS NULL;
                UPDATE hot_reservations SET sms_pending = 0 WHERE event_id IN (SELECT value FROM json_each($ids)) AND sms_pending = 1;
                """;
            mark.Parameters.AddWithValue("$now", now);
            mark.Parameters.AddWithValue("$ids", list);
            return mark.ExecuteNonQuery();
        }, ct);
    }

    public async Task<bool> WasSentAsync(long messageId, CancellationToken ct)
    {
        await using var connection = new SqliteConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        await using var find = connection.CreateCommand();
        find.CommandText = "SELECT 1 FROM sms_sent WHERE message_id = $id AND status <> 3";
        find.Parameters.AddWithValue("$id", messageId);
        return await find.ExecuteScalarAsync(ct) is not null;
    }

    /// <summary>
    /// The embedded default's file belongs to one process, whose <see cref="SmsDelivery"/> already keeps
    /// two copies of a message apart in memory: a claim row would only add a write per SMS to the one
    /// writer, so the claim is the look alone.
    /// </summary>
    public async Task<SmsClaimResult> ClaimAsync(SmsClaim claim, long leaseSeconds, CancellationToken ct) =>
        await WasSentAsync(claim.MessageId, ct) ? SmsClaimResult.Sent : SmsClaimResult.Claimed;

    public Task ReleaseAsync(SmsClaim claim, CancellationToken ct) => Task.CompletedTask;

    public async Task RecordSentAsync(SmsSendRecord record, CancellationToken ct) =>
        await writer.WriteAsync(hot =>
        {
            using var insert = hot.Connection.CreateCommand();
            insert.Transaction = hot.Transaction;
            insert.CommandText = """
                INSERT INTO sms_sent (message_id, kind, code, status, tries, sent_at) VALUES ($id, $kind, $code, $status, $tries, $at)
                ON CONFLICT (message_id) DO UPDATE SET status = excluded.status, tries = excluded.tries, sent_at = excluded.sent_at, claim = NULL
                WHERE sms_sent.status = 3
                """;
            insert.Parameters.AddWithValue("$id", record.MessageId);
            insert.Parameters.AddWithValue("$kind", (int)record.Kind);
            insert.Parameters.AddWithValue("$code", record.Code);
            insert.Parameters.AddWithValue("$status", (int)record.Status);
            insert.Parameters.AddWithValue("$tries", record.Tries);
            insert.Parameters.AddWithValue("$at", record.SentAt);
            return insert.ExecuteNonQuery();
        }, ct);
}

[System.Text.Json.Serialization.JsonSerializable(typeof(long[]))]
internal sealed partial class SmsStoreJson : System.Text.Json.Serialization.JsonSerializerContext;
