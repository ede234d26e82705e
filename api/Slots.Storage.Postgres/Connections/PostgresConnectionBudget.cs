using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Npgsql;

namespace Slots.Storage.Postgres;

/// <summary>
/// Slots:Storage:Postgres:ConnectionBudget — how many Slots processes share one PostgreSQL server,
/// so each can check at start that all of them fit its max_connections.
/// </summary>
public sealed class ConnectionBudgetOptions
{
    public const string Section = "Slots:Storage:Postgres:ConnectionBudget";

    /// <summary>Slots processes (API instances and scheduler nodes) that use this database, this one included.</summary>
    public int Processes { get; set; } = 4;

    /// <summary>Connections left for everything else: operators, monitoring, backups, a migration.</summary>
    public int Headroom { get; set; } = 10;

    public static ConnectionBudgetOptions Read(IConfiguration configuration)
    {
        var options = configuration.GetSection(Section).Get<ConnectionBudgetOptions>() ?? new ConnectionBudgetOptions();
        if (options.Processes is < 1 or > 10_000 || options.Headroom is < 0 or > 10_000)
        {
            throw new InvalidOperationException($"{Section}: Processes must be 1..10000 and Headroom 0..10000.");
        }
        return options;
    }
}

/// <summary>
/// Refuses to start a process whose connections, with those of the others it shares the server
/// with, cannot fit max_connections: a stampede would otherwise meet "sorry, too many clients
/// already" at its peak instead of an operator meeting this message at start. A process may hold
/// two pools of Maximum Pool Size each (the hot path's data source and EF Core's), so it counts
/// as twice its pool; the superusers' reserved connections are not Slots'.
/// </summary>
public sealed partial class PostgresConnectionBudget(
    NpgsqlDataSource dataSource, ConnectionBudgetOptions options, ILogger<PostgresConnectionBudget> logger) : IHostedLifecycleService
{
    public async Task StartingAsync(CancellationToken cancellationToken)
    {
        await using var connection = await dataSource.OpenConnectionAsync(cancellationToken);
        await using var show = new NpgsqlCommand(
            "SELECT current_setting('max_connections')::integer, current_setting('superuser_reserved_connections')::integer", connection);
        await using var row = await show.ExecuteReaderAsync(cancellationToken);
        await row.ReadAsync(cancellationToken);
        var (max, reserved) = (row.GetInt32(0), row.GetInt32(1));
        var pool = new NpgsqlConnectionStringBuilder(dataSource.ConnectionString).MaxPoolSize;
        var check = Check(max, reserved, pool, options);
        if (!check.Fits)
        {
            throw new InvalidOperationException(check.Message);
        }
        LogFits(logger, check.Needed, max - reserved);
    }

    /// <summary>Whether the processes' pools and the headroom fit what the server lets ordinary users open.</summary>
    public static (bool Fits, int Needed, string Message) Check(int maxConnections, int superuserReserved, int maxPoolSize, ConnectionBudgetOptions options)
    {
        var needed = (options.Processes * 2 * maxPoolSize) + options.Headroom;
        var available = maxConnections - superuserReserved;
        return (needed <= available, needed,
            $"PostgreSQL allows {available} connections (max_connections {maxConnections} less {superuserReserved} reserved for superusers), " +
            $"but {options.Processes} Slots processes ({ConnectionBudgetOptions.Section}:Processes) × 2 pools × Maximum Pool Size {maxPoolSize} " +
            $"+ {options.Headroom} headroom need {needed}. Lower Maximum Pool Size in ConnectionStrings:Slots, raise max_connections on the server, " +
            "or correct the process count (README, Slots:Storage:Postgres:ConnectionBudget).");
    }

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    public Task StartedAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    public Task StoppingAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    public Task StopAsync(CancellationToken cancellationToken) => Task.CompletedTask;
    public Task StoppedAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    [LoggerMessage(EventId = 2220, Level = LogLevel.Information, Message = "Connection budget: the Slots processes need at most {Needed} of the {Available} connections PostgreSQL allows")]
    private static partial void LogFits(ILogger logger, int needed, int available);
}
