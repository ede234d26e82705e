using Npgsql;
using NpgsqlTypes;
using Slots.Reservations;
using Slots.Sms;
using Slots.Storage;

namespace Slots.Storage.Postgres;

/// <summary>PostgreSQL: plain statements on the hot-path data source; the partial index ix_outbox_unsent serves the read.</summary>
internal sealed class PostgresSmsStore(NpgsqlDataSource dataSource) : ISmsStore
{
    public async Task<IReadOnlyList<OutboxRow>> ReadUnsentAsync(int max, CancellationToken ct)
    {
        await using var read = dataSource.CreateCommand("""
            SELECT id, kind, code, phone, language, place_id, day, start_minute, note
            FROM outbox WHERE sent_at IS NULL ORDER BY id LIMIT $1
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
        await using var mark = dataSource.CreateCommand("UPDATE outbox SET sent_at = $1 WHERE id = ANY($2) AND sent_at IS NULL");
        mark.Parameters.Add(new NpgsqlParameter<long> { TypedValue = now });
        mark.Parameters.Add(new NpgsqlParameter<long[]> { TypedValue = ids.ToArray(), NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Bigint });
        await mark.ExecuteNonQueryAsync(ct);
    }

    public async Task<bool> WasSentAsync(long messageId, CancellationToken ct)
    {
        await using var find = dataSource.CreateCommand("SELECT 1 FROM sms_sent WHERE message_id = $1");
        find.Parameters.Add(new NpgsqlParameter<long> { TypedValue = messageId });
        return await find.ExecuteScalarAsync(ct) is not null;
    }

    public async Task RecordSentAsync(SmsSendRecord record, CancellationToken ct)
    {
        await using var insert = dataSource.CreateCommand("""
            INSERT INTO sms_sent (message_id, kind, code, status, tries, sent_at) VALUES ($1, $2, $3, $4, $5, $6)
            ON CONFLICT (message_id) DO NOTHING
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
