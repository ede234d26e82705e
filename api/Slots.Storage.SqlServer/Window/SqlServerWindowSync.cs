using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Idempotency;
using Slots.Scheduling;
using Slots.Window;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The window operations on SQL Server through SqlClient: the interpreted procs of sql/019-021 do
/// the work (the window's moves stay beside the hot seats, docs/sqlserver.md). Not run here:
/// no SQL Server on the build machines; the scripts are parse-checked by tests/Slots.SqlServer.Tests.
/// </summary>
public sealed class SqlServerWindowSync(SqlServerConnectionString connectionString, Microsoft.Extensions.Options.IOptions<WindowOptions> window, TimeProvider clock)
    : IWindowSync, IJobRunLog, IIdempotencyPurge
{
    public async Task<WindowMove> AdvanceAsync(CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        var seats = 0;
        await using var connection = await OpenAsync(ct);
        foreach (var (id, zone, horizon) in await PlacesAsync(connection, ct))
        {
            var today = LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(zone), now);
            var target = today.AddDays(window.Value.Days);
            if (horizon >= target)
            {
                continue;
            }
            // dbo.load_hot_days loads seats and cold reservations and moves the horizon in one transaction.
            await using var load = SqlServerCommands.LoadHotDays(id, horizon < today ? today : horizon, target.AddDays(-1)).On(connection);
            await load.ExecuteNonQueryAsync(ct);
            seats += load.Out("@return") as int? ?? 0;
        }
        return new WindowMove(seats, 0);
    }

    public async Task<int> FlushAsync(int batchSize, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var flush = SqlServerCommands.FlushChanges(batchSize).On(connection);
        return (int)(await flush.ExecuteScalarAsync(ct))!;
    }

    public async Task<int> EvictAsync(int batchSize, CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        await using var connection = await OpenAsync(ct);
        foreach (var (id, zone, _) in await PlacesAsync(connection, ct))
        {
            // dbo.evict_hot_days flushes first, then deletes in small autocommit batches.
            var before = LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(zone), now);
            await using var evict = SqlServerCommands.EvictHotDays(id, before, now, batchSize).On(connection);
            await evict.ExecuteNonQueryAsync(ct);
        }
        return 0; // the proc reports no count
    }

    public async Task<int> PurgeAsync(DateTimeOffset before, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var purge = new SqlCommand("DELETE FROM dbo.idempotency WITH (SNAPSHOT) WHERE created_at < @cutoff", connection);
        purge.Parameters.Add("@cutoff", SqlDbType.BigInt).Value = before.ToUnixTimeSeconds();
        return await purge.ExecuteNonQueryAsync(ct);
    }

    public async Task<DateTimeOffset?> OldestPendingChangeAsync(CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var oldest = new SqlCommand("SELECT MIN(at) FROM dbo.changes WITH (SNAPSHOT)", connection);
        return await oldest.ExecuteScalarAsync(ct) is long at ? DateTimeOffset.FromUnixTimeSeconds(at) : null;
    }

    public async Task RecordAsync(JobRun run, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var record = SqlServerCommands.RecordJobRun(run).On(connection);
        await record.ExecuteNonQueryAsync(ct);
    }

    public async Task<IReadOnlyList<JobRun>> LastRunsAsync(CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var query = new SqlCommand(
            "SELECT job, started_at, duration_ms, rows_moved, ok, instance FROM dbo.job_runs ORDER BY job", connection);
        await using var row = await query.ExecuteReaderAsync(ct);
        var runs = new List<JobRun>();
        while (await row.ReadAsync(ct))
        {
            runs.Add(new JobRun(row.GetString(0), DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(1)),
                TimeSpan.FromMilliseconds(row.GetInt64(2)), row.GetInt64(3), row.GetBoolean(4), row.GetString(5)));
        }
        return runs;
    }

    private static async Task<List<(int Id, string Zone, DateOnly Horizon)>> PlacesAsync(SqlConnection connection, CancellationToken ct)
    {
        await using var query = new SqlCommand("SELECT id, time_zone, hot_until FROM dbo.places", connection);
        await using var row = await query.ExecuteReaderAsync(ct);
        var places = new List<(int, string, DateOnly)>();
        while (await row.ReadAsync(ct))
        {
            places.Add((row.GetInt32(0), row.GetString(1), DateOnly.FromDateTime(row.GetDateTime(2))));
        }
        return places;
    }

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}
