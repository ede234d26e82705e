using Microsoft.Extensions.Logging;
using Npgsql;
using Slots.Storage.Postgres;
using Slots.Testing;

namespace Slots.Storage.Postgres.Tests;

/// <summary>
/// A start-up that waits for another process's schema migration says so, naming the session that
/// holds the lock (the chaos soak's silent scheduler start was undiagnosable without it).
/// </summary>
public sealed class PostgresMigrationLockTests
{
    private const long MigrationLock = 0x736C6F7473;

    // Regression: the holder was looked up in pg_locks over every database of the server, so a
    // migration of another database on the same server (the test suites' shared server, or two
    // deployments on one cluster) could be named instead of the session that blocks this one.
    // An advisory lock is per database: sessions holding the same key elsewhere block nothing here.
    [Fact]
    public async Task A_migration_waiting_for_the_lock_names_who_holds_it_and_finishes_once_it_is_let_go()
    {
        var ct = TestContext.Current.CancellationToken;
        var server = await SharedPostgres.OrSkipAsync();
        await using var elsewhere = new DisposableList();
        for (var i = 0; i < 3; i++)
        {
            var other = await server.CreateDatabaseAsync("lockx" + Guid.NewGuid().ToString("N")[..12], ct);
            elsewhere.Add(await HoldAsync(other + ";Application Name=holder-elsewhere", ct));
        }
        var connectionString = await server.CreateDatabaseAsync("lock" + Guid.NewGuid().ToString("N")[..12], ct);
        await using var holder = await HoldAsync(connectionString + ";Application Name=holder-under-test", ct);
        var log = new RecordingLogger();
        await using var own = NpgsqlDataSource.Create(connectionString);

        var migration = new PostgresSchema(own, log).MigrateAsync(ct);
        var deadline = DateTime.UtcNow.AddSeconds(20);
        while (!log.Has(LogLevel.Warning) && DateTime.UtcNow < deadline)
        {
            await Task.Delay(200, ct);
        }
        var waiting = Assert.Single(log.Lines, l => l.Level == LogLevel.Warning).Text;
        Assert.False(migration.IsCompleted);
        await using (var release = new NpgsqlCommand($"SELECT pg_advisory_unlock({MigrationLock})", holder))
        {
            await release.ExecuteNonQueryAsync(ct);
        }
        await migration.WaitAsync(TimeSpan.FromSeconds(60), ct);

        Assert.Contains("held by pid", waiting);
        Assert.Contains("holder-under-test", waiting);
        Assert.DoesNotContain("holder-elsewhere", waiting);
        Assert.Contains(log.Lines, l => l.Level == LogLevel.Information && l.Text.StartsWith("Schema up to date", StringComparison.Ordinal));
    }

    /// <summary>A session holding the migration lock's key in the database the connection string names.</summary>
    private static async Task<NpgsqlConnection> HoldAsync(string connectionString, CancellationToken ct)
    {
        var connection = new NpgsqlConnection(connectionString);
        await connection.OpenAsync(ct);
        await using var take = new NpgsqlCommand($"SELECT pg_advisory_lock({MigrationLock})", connection);
        await take.ExecuteNonQueryAsync(ct);
        return connection;
    }

    private sealed class DisposableList : List<NpgsqlConnection>, IAsyncDisposable
    {
        public async ValueTask DisposeAsync()
        {
            foreach (var connection in this)
            {
                await connection.DisposeAsync();
            }
        }
    }

    private sealed class RecordingLogger : ILogger<PostgresSchema>
    {
        private readonly List<(LogLevel Level, string Text)> _lines = [];

        public IReadOnlyList<(LogLevel Level, string Text)> Lines
        {
            get
            {
                lock (_lines)
                {
                    return [.. _lines];
                }
            }
        }

        public bool Has(LogLevel level) => Lines.Any(l => l.Level == level);

        public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

        public bool IsEnabled(LogLevel logLevel) => true;

        public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter)
        {
            lock (_lines)
            {
                _lines.Add((logLevel, formatter(state, exception)));
            }
        }
    }
}
