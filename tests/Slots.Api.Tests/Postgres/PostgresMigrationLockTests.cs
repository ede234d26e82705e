using Microsoft.Extensions.Logging;
using Npgsql;
using Slots.Storage.Postgres;
using Slots.Testing;

namespace Slots.Api.Tests.Postgres;

/// <summary>
/// A start-up that waits for another process's schema migration says so, naming the session that
/// holds the lock (the chaos soak's silent scheduler start was undiagnosable without it).
/// </summary>
public sealed class PostgresMigrationLockTests
{
    private const long MigrationLock = 0x736C6F7473;

    [Fact]
    public async Task A_migration_waiting_for_the_lock_names_who_holds_it_and_finishes_once_it_is_let_go()
    {
        var ct = TestContext.Current.CancellationToken;
        var server = await SharedPostgres.OrSkipAsync();
        var connectionString = await server.CreateDatabaseAsync("lock" + Guid.NewGuid().ToString("N")[..12], ct);
        await using var holder = new NpgsqlConnection(connectionString + ";Application Name=holder-under-test");
        await holder.OpenAsync(ct);
        await using (var take = new NpgsqlCommand($"SELECT pg_advisory_lock({MigrationLock})", holder))
        {
            await take.ExecuteNonQueryAsync(ct);
        }
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
        Assert.Contains(log.Lines, l => l.Level == LogLevel.Information && l.Text.StartsWith("Schema up to date", StringComparison.Ordinal));
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
