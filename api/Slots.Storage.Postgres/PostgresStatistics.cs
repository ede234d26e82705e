using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Npgsql;

namespace Slots.Storage.Postgres;

/// <summary>Slots:Storage:Postgres:Statistics — how the planner's statistics of a growing table are kept current (<see cref="PostgresStatistics"/>).</summary>
public sealed class StatisticsOptions
{
    public const string Section = "Slots:Storage:Postgres:Statistics";

    /// <summary>How often the tables' changes are looked at; zero turns the refresh off (a database whose ANALYZE runs on a schedule of its own).</summary>
    public TimeSpan Interval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>The fewest changes since the last ANALYZE that make a table's statistics stale, however few its rows.</summary>
    public long MinimumChanges { get; set; } = 1_000;

    public static StatisticsOptions Read(IConfiguration configuration)
    {
        var options = configuration.GetSection(Section).Get<StatisticsOptions>() ?? new StatisticsOptions();
        if (options.Interval < TimeSpan.Zero || options.Interval > TimeSpan.FromHours(1) || options.MinimumChanges < 1)
        {
            throw new InvalidOperationException($"{Section}: Interval must be 0 (off) to 01:00:00 and MinimumChanges at least 1.");
        }
        return options;
    }
}

/// <summary>
/// Keeps the planner's statistics of a table as current as its growth (looked at every
/// <see cref="StatisticsOptions.Interval"/>, a second by default). The person and booking tables
/// are empty when a campaign opens (a new database, or its last bookings erased), and an ANALYZE then (autovacuum's,
/// which runs after any change) records them as empty. Each server session keeps the plans it made from that for the
/// hot path's statements until the next ANALYZE, and a plan made for an empty table reads it whole: for every booking
/// while the stampede fills it, 10 ms a batch at 19,000 rows instead of 1, up to autovacuum's next pass a minute
/// later. Here a table is analyzed once its changes since the last ANALYZE reach its rows then (at least
/// <see cref="StatisticsOptions.MinimumChanges"/>): right after an empty table's first thousand bookings, then at each doubling, so a
/// few times in a campaign. An ANALYZE makes every session plan those statements again.
/// <para>
/// Every instance runs it; <c>SKIP_LOCKED</c> lets an ANALYZE another instance (or autovacuum) is running go. A server
/// that refuses (a read-only standby) is logged once and tried again each second; a table the user does not own is
/// skipped by PostgreSQL with a warning in its own log.
/// </para>
/// </summary>
public sealed partial class PostgresStatistics(NpgsqlDataSource dataSource, StatisticsOptions options, ILogger<PostgresStatistics> logger)
    : BackgroundService
{
    private const string Stale = """
        SELECT format('%I.%I', s.schemaname, s.relname)
        FROM pg_stat_user_tables s JOIN pg_class c ON c.oid = s.relid
        WHERE s.n_mod_since_analyze >= greatest($1, c.reltuples)
        ORDER BY 1
        """;

    private bool _failing;

    /// <summary>Analyzes every table whose statistics its changes have outgrown; the tables analyzed, schema-qualified.</summary>
    public async Task<IReadOnlyList<string>> RefreshAsync(CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        var tables = new List<string>();
        await using (var stale = new NpgsqlCommand(Stale, connection))
        {
            stale.Parameters.Add(new NpgsqlParameter<long> { TypedValue = options.MinimumChanges });
            await using var rows = await stale.ExecuteReaderAsync(ct);
            while (await rows.ReadAsync(ct))
            {
                tables.Add(rows.GetString(0));
            }
        }
        foreach (var table in tables)
        {
            // The name comes from the catalogue, quoted by format(%I).
            await using var analyze = new NpgsqlCommand($"ANALYZE (SKIP_LOCKED) {table}", connection);
            await analyze.ExecuteNonQueryAsync(ct);
        }
        return tables;
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (options.Interval == TimeSpan.Zero)
        {
            return;
        }
        using var timer = new PeriodicTimer(options.Interval);
        try
        {
            while (await timer.WaitForNextTickAsync(stoppingToken))
            {
                await PassAsync(stoppingToken);
            }
        }
        catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
        {
            // The host is stopping.
        }
    }

    private async Task PassAsync(CancellationToken ct)
    {
        try
        {
            var analyzed = await RefreshAsync(ct);
            if (analyzed.Count > 0)
            {
                LogAnalyzed(logger, string.Join(", ", analyzed));
            }
            _failing = false;
        }
        catch (Exception ex) when (!ct.IsCancellationRequested)
        {
            // Upkeep, not the service: whatever failed, the host keeps answering and the next second tries again.
            if (!_failing)
            {
                LogFailed(logger, ex.GetType().Name, (ex as PostgresException)?.SqlState ?? "-");
            }
            _failing = true;
        }
    }

    [LoggerMessage(Level = LogLevel.Debug, Message = "Statistics refreshed for {Tables}")]
    private static partial void LogAnalyzed(ILogger logger, string tables);

    [LoggerMessage(Level = LogLevel.Warning, Message = "Refreshing the planner's statistics failed ({Error}, SQLSTATE {SqlState}); tried again every second, logged again after a success")]
    private static partial void LogFailed(ILogger logger, string error, string sqlState);
}
