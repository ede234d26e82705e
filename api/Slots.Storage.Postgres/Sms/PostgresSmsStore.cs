using Npgsql;
using NpgsqlTypes;
using Slots.Reservations;
using Slots.Sms;
using Slots.Storage;

namespace Slots.Storage.Postgres;

/// <summary>
/// PostgreSQL: plain statements on the hot-path data source. Unsent SMS are the outbox's rows and
/// the confirmations new bookings carry on their hot reservation rows (event_id, sms_pending), one
/// id sequence for both; the partial indexes ix_outbox_unsent and ix_hot_reservations_sms serve the read.
/// </summary>
public sealed class PostgresSmsStore(NpgsqlDataSource dataSource) : ISmsStore
{
    public async Task<IReadOnlyList<OutboxRow>> ReadUnsentAsync(int max, CancellationToken ct)
    {
        await using var read = dataSource.CreateCommand("""
            (SELECT id, kind, code, phone, language, place_id, day, start_minute, note
             FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT $1)
            UNION ALL
            (SELECT event_id, 1, code, phone, language, place_id, day, start_minute, NULL
             FROM hot_reservations WHERE sms_pending ORDER BY event_id LIMIT $1)
            ORDER BY 1 LIMIT $1
            """);
        read.Parameters.Add(new NpgsqlParameter<int> { TypedValue = max });
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
        // One round trip; an id is in one of the two places (a hot row that went moved its SMS to the outbox).
        await using var mark = dataSource.CreateBatch();
        mark.BatchCommands.Add(new NpgsqlBatchCommand("UPDATE outbox SET sent_at = $1 WHERE id = ANY($2) AND sent_at IS NULL"));
        mark.BatchCommands.Add(new NpgsqlBatchCommand("UPDATE hot_reservations SET sms_pending = false WHERE event_id = ANY($1) AND sms_pending"));
        var array = ids.ToArray();
        mark.BatchCommands[0].Parameters.Add(new NpgsqlParameter<long> { TypedValue = now });
        mark.BatchCommands[0].Parameters.Add(new NpgsqlParameter<long[]> { TypedValue = array, NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Bigint });
        mark.BatchCommands[1].Parameters.Add(new NpgsqlParameter<long[]> { TypedValue = array, NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Bigint });
        await mark.ExecuteNonQueryAsync(ct);
    }

    public async Task<bool> WasSentAsync(long messageId, CancellationToken ct)
    {
        await using var find = dataSource.CreateCommand("SELECT 1 FROM sms_sent WHERE message_id = $1 AND status <> 3");
        find.Parameters.Add(new NpgsqlParameter<long> { TypedValue = messageId });
        return await find.ExecuteScalarAsync(ct) is not null;
    }

    public async Task<SmsClaimResult> ClaimAsync(SmsClaim claim, long leaseSeconds, CancellationToken ct)
    {
        // A new row, or a claim whose holder let it run out; a record (status 1, 2) is never touched.
        await using (var take = dataSource.CreateCommand("""
            INSERT INTO sms_sent AS s (message_id, kind, code, status, tries, sent_at, claim) VALUES ($1, $2, $3, 3, 0, $4, $5)
            ON CONFLICT (message_id) DO UPDATE SET sent_at = excluded.sent_at, claim = excluded.claim
            WHERE s.status = 3 AND s.sent_at <= excluded.sent_at - $6
            """))
        {
            take.Parameters.Add(new NpgsqlParameter<long> { TypedValue = claim.MessageId });
            take.Parameters.Add(new NpgsqlParameter<int> { TypedValue = (int)claim.Kind });
            take.Parameters.Add(new NpgsqlParameter<string> { TypedValue = claim.Code });
            take.Parameters.Add(new NpgsqlParameter<long> { TypedValue = claim.At });
            take.Parameters.Add(new NpgsqlParameter<string> { TypedValue = claim.Token });
            take.Parameters.Add(new NpgsqlParameter<long> { TypedValue = leaseSeconds });
            if (await take.ExecuteNonQueryAsync(ct) == 1)
            {
                return SmsClaimResult.Claimed;
            }
        }
        await using var find = dataSource.CreateCommand("SELECT status FROM sms_sent WHERE message_id = $1");
        find.Parameters.Add(new NpgsqlParameter<long> { TypedValue = claim.MessageId });
        return await find.ExecuteScalarAsync(ct) switch
        {
            (int)SmsSendStatus.Sending => SmsClaimResult.HeldElsewhere,
            null => SmsClaimResult.HeldElsewhere, // released between the two statements: the next look claims it
            _ => SmsClaimResult.Sent,
        };
    }

    public async Task ReleaseAsync(SmsClaim claim, CancellationToken ct)
    {
        await using var release = dataSource.CreateCommand("DELETE FROM sms_sent WHERE message_id = $1 AND status = 3 AND claim = $2");
        release.Parameters.Add(new NpgsqlParameter<long> { TypedValue = claim.MessageId });
        release.Parameters.Add(new NpgsqlParameter<string> { TypedValue = claim.Token });
        await release.ExecuteNonQueryAsync(ct);
    }

    public async Task RecordSentAsync(SmsSendRecord record, CancellationToken ct)
    {
        // The record replaces a claim (this consumer's, or one that ran out); a record already there stays.
        await using var insert = dataSource.CreateCommand("""
            INSERT INTO sms_sent AS s (message_id, kind, code, status, tries, sent_at) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (message_id) DO UPDATE SET status = excluded.status, tries = excluded.tries, sent_at = excluded.sent_at, claim = NULL
            WHERE s.status = 3
            """);
        insert.Parameters.Add(new NpgsqlParameter<long> { TypedValue = record.MessageId });
        insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = (int)record.Kind });
        insert.Parameters.Add(new NpgsqlParameter<string> { TypedValue = record.Code });
        insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = (int)record.Status });
        insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = record.Tries });
        insert.Parameters.Add(new NpgsqlParameter<long> { TypedValue = record.SentAt });
        await insert.ExecuteNonQueryAsync(ct);
    }
}
