using Microsoft.Data.SqlClient;
using Slots.Reservations;
using Slots.Sms;
using Slots.Storage;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer;

/// <summary>
/// SQL Server: one interpreted proc call per operation (sql/111-116), which read and write the
/// memory-optimized outbox WITH (SNAPSHOT) (the hint memory-optimized tables need outside a native
/// proc under READ COMMITTED); sms_sent is a disk table. Not run by the tests here (no SQL Server
/// on the CI machine): the procs are parse-checked, the commands matched to their signatures.
/// </summary>
public sealed class SqlServerSmsStore(SqlServerConnectionString connectionString) : ISmsStore
{
    private const int DuplicateKey = 2627;

    public async Task<IReadOnlyList<OutboxRow>> ReadUnsentAsync(int max, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var read = SqlServerCommands.SmsReadUnsent(max).On(connection);
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
        await using var mark = SqlServerCommands.SmsMarkSent(ids, now).On(connection);
        await mark.ExecuteNonQueryAsync(ct);
    }

    public async Task<bool> WasSentAsync(long messageId, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var find = SqlServerCommands.SmsWasSent(messageId).On(connection);
        return await find.ExecuteScalarAsync(ct) is not null;
    }

    public async Task<SmsClaimResult> ClaimAsync(SmsClaim claim, long leaseSeconds, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var take = SqlServerCommands.SmsClaim(claim, leaseSeconds).On(connection);
        return (SmsClaimResult)(int)(await take.ExecuteScalarAsync(ct))!;
    }

    public async Task ReleaseAsync(SmsClaim claim, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var release = SqlServerCommands.SmsRelease(claim).On(connection);
        await release.ExecuteNonQueryAsync(ct);
    }

    public async Task RecordSentAsync(SmsSendRecord record, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var insert = SqlServerCommands.SmsRecord(record).On(connection);
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
