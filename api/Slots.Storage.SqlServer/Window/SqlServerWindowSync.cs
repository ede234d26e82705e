using Microsoft.Data.SqlClient;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Idempotency;
using Slots.Scheduling;
using Slots.Storage.Ef;
using Slots.Window;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The window operations on SQL Server: the window's moves and the run log's write through SqlClient
/// and the interpreted procs of sql/019-021 (they stay beside the hot seats, docs/sqlserver.md); the
/// reads beside them (the places, the oldest change waiting, the run log) and the idempotency purge
/// through the shared EF Core store on SQL Server's provider, the LINQ SQLite and PostgreSQL run.
/// Not run here: no SQL Server on the build machines; the scripts are parse-checked, and what EF Core
/// sends checked against them, by tests/Slots.SqlServer.Tests.
/// </summary>
public sealed class SqlServerWindowSync(
    SqlServerConnectionString connectionString, IServiceScopeFactory scopes, Microsoft.Extensions.Options.IOptions<WindowOptions> window, TimeProvider clock)
    : IWindowSync, IJobRunLog, IIdempotencyPurge
{
    public async Task<WindowMove> AdvanceAsync(CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        var seats = 0;
        var places = await PlacesAsync(ct);
        await using var connection = await OpenAsync(ct);
        foreach (var (id, zone, horizon) in places)
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
        var places = await PlacesAsync(ct);
        await using var connection = await OpenAsync(ct);
        foreach (var (id, zone, _) in places)
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
        await using var scope = scopes.CreateAsyncScope();
        return await new EfIdempotencyPurge(scope.ServiceProvider.GetRequiredService<SlotsDbContext>()).PurgeAsync(before, ct);
    }

    public async Task<DateTimeOffset?> OldestPendingChangeAsync(CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var oldest = await EfDialect.OldestPendingChange(scope.ServiceProvider.GetRequiredService<SlotsDbContext>(), ct);
        return oldest is { } at ? DateTimeOffset.FromUnixTimeSeconds(at) : null;
    }

    public async Task RecordAsync(JobRun run, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var record = SqlServerCommands.RecordJobRun(run).On(connection);
        await record.ExecuteNonQueryAsync(ct);
    }

    public async Task<IReadOnlyList<JobRun>> LastRunsAsync(CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        return await EfJobRunLog.LastRunsAsync(scope.ServiceProvider.GetRequiredService<SlotsDbContext>(), ct);
    }

    private async Task<List<(int Id, string Zone, DateOnly Horizon)>> PlacesAsync(CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var places = await Places(scope.ServiceProvider.GetRequiredService<SlotsDbContext>()).ToListAsync(ct);
        return places.ConvertAll(p => (p.Id, p.TimeZone, p.HotUntil));
    }

    /// <summary>Every place with its time zone and horizon (public so the tests parse what it becomes on SQL Server).</summary>
    public static IQueryable<WindowPlace> Places(SlotsDbContext db) =>
        db.Places.AsNoTracking().Select(p => new WindowPlace(p.Id, p.TimeZone, p.HotUntil));

    public sealed record WindowPlace(int Id, string TimeZone, DateOnly HotUntil);

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}
