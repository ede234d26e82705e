using System.Diagnostics;
using System.Reflection;
using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Npgsql;

namespace Slots.Storage.Postgres;

/// <summary>
/// Applies the embedded postgres/NNN_*.sql scripts in order, each once, recording what ran; then
/// the functions, one live definition per file (Schema/Functions), each re-applied only when its
/// text differs from the one recorded, so a start that changes nothing invalidates no plans.
/// Several API instances start at once: a session advisory lock lets one of them migrate while
/// the others wait, then find every version recorded. A wait is never silent: every few seconds it
/// logs which session holds the lock, so a start-up stuck behind another process can be told from
/// one stuck anywhere else.
/// </summary>
public sealed partial class PostgresSchema(NpgsqlDataSource dataSource, ILogger<PostgresSchema>? logger = null) : ISchemaMigrator
{
    private static readonly TimeSpan LockPoll = TimeSpan.FromMilliseconds(200);
    private static readonly TimeSpan WaitReport = TimeSpan.FromSeconds(5);
    private readonly ILogger _logger = logger ?? NullLogger<PostgresSchema>.Instance;

    private const string Prefix = "postgres/";
    private const string FunctionPrefix = "postgres-functions/";

    // Any constant both sides agree on; 'slots' in ASCII.
    private const long MigrationLock = 0x736C6F7473;

    public async Task MigrateAsync(CancellationToken ct)
    {
        var started = Stopwatch.StartNew();
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await TakeLockAsync(connection, ct);
        var applied = 0;
        try
        {
            await ExecuteAsync(connection, null, """
                CREATE TABLE IF NOT EXISTS schema_migrations (version text NOT NULL PRIMARY KEY, applied_at bigint NOT NULL)
                """, ct);
            var assembly = typeof(PostgresSchema).Assembly;
            var scripts = assembly.GetManifestResourceNames()
                .Where(n => n.StartsWith(Prefix, StringComparison.Ordinal))
                .Order(StringComparer.Ordinal);
            foreach (var script in scripts)
            {
                var version = script[Prefix.Length..];
                await using var tx = await connection.BeginTransactionAsync(ct);
                await using (var check = new NpgsqlCommand("SELECT count(*) FROM schema_migrations WHERE version = $1", connection, tx))
                {
                    check.Parameters.Add(new NpgsqlParameter<string> { TypedValue = version });
                    if ((long)(await check.ExecuteScalarAsync(ct))! > 0)
                    {
                        continue;
                    }
                }
                await ExecuteAsync(connection, tx, await ReadAsync(assembly, script, ct), ct);
                await using (var record = new NpgsqlCommand(
                    "INSERT INTO schema_migrations (version, applied_at) VALUES ($1, extract(epoch FROM now())::bigint)", connection, tx))
                {
                    record.Parameters.Add(new NpgsqlParameter<string> { TypedValue = version });
                    await record.ExecuteNonQueryAsync(ct);
                }
                await tx.CommitAsync(ct);
                applied++;
            }
            applied += await ApplyFunctionsAsync(connection, assembly, ct);
            LogMigrated(_logger, applied, started.ElapsedMilliseconds);
        }
        finally
        {
            // Not the caller's token: the lock must go back even when start-up is cancelled. A broken
            // connection has nothing to unlock (the server dropped the session's locks with it).
            if (connection.FullState == System.Data.ConnectionState.Open)
            {
                await ExecuteAsync(connection, null, $"SELECT pg_advisory_unlock({MigrationLock})", CancellationToken.None);
            }
        }
    }

    /// <summary>
    /// Each function file whose text changed since it was last applied (CREATE OR REPLACE), with
    /// its hash recorded in the same transaction. Returns how many were applied.
    /// </summary>
    private static async Task<int> ApplyFunctionsAsync(NpgsqlConnection connection, Assembly assembly, CancellationToken ct)
    {
        await ExecuteAsync(connection, null, """
            CREATE TABLE IF NOT EXISTS schema_functions (name text NOT NULL PRIMARY KEY, sha256 text NOT NULL, applied_at bigint NOT NULL)
            """, ct);
        var applied = 0;
        var files = assembly.GetManifestResourceNames()
            .Where(n => n.StartsWith(FunctionPrefix, StringComparison.Ordinal))
            .Order(StringComparer.Ordinal);
        foreach (var file in files)
        {
            var name = file[FunctionPrefix.Length..];
            var text = await ReadAsync(assembly, file, ct);
            var hash = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(text)));
            await using var tx = await connection.BeginTransactionAsync(ct);
            await using (var check = new NpgsqlCommand("SELECT count(*) FROM schema_functions WHERE name = $1 AND sha256 = $2", connection, tx))
            {
                check.Parameters.Add(new NpgsqlParameter<string> { TypedValue = name });
                check.Parameters.Add(new NpgsqlParameter<string> { TypedValue = hash });
                if ((long)(await check.ExecuteScalarAsync(ct))! > 0)
                {
                    continue;
                }
            }
            await ExecuteAsync(connection, tx, text, ct);
            await using (var record = new NpgsqlCommand("""
                INSERT INTO schema_functions (name, sha256, applied_at) VALUES ($1, $2, extract(epoch FROM now())::bigint)
                ON CONFLICT (name) DO UPDATE SET sha256 = excluded.sha256, applied_at = excluded.applied_at
                """, connection, tx))
            {
                record.Parameters.Add(new NpgsqlParameter<string> { TypedValue = name });
                record.Parameters.Add(new NpgsqlParameter<string> { TypedValue = hash });
                await record.ExecuteNonQueryAsync(ct);
            }
            await tx.CommitAsync(ct);
            applied++;
        }
        return applied;
    }

    /// <summary>The session lock, polled with pg_try_advisory_lock so the wait can say who it waits for.</summary>
    private async Task TakeLockAsync(NpgsqlConnection connection, CancellationToken ct)
    {
        var waiting = Stopwatch.StartNew();
        var reported = TimeSpan.Zero;
        while (true)
        {
            await using (var take = new NpgsqlCommand($"SELECT pg_try_advisory_lock({MigrationLock})", connection))
            {
                if ((bool)(await take.ExecuteScalarAsync(ct))!)
                {
                    return;
                }
            }
            if (waiting.Elapsed - reported >= WaitReport)
            {
                reported = waiting.Elapsed;
                LogWaiting(_logger, (long)waiting.Elapsed.TotalSeconds, await HolderAsync(connection, ct));
            }
            await Task.Delay(LockPoll, ct);
        }
    }

    /// <summary>The session holding the migration lock, as pg_stat_activity names it.</summary>
    private static async Task<string> HolderAsync(NpgsqlConnection connection, CancellationToken ct)
    {
        // A bigint advisory key is stored as classid (high 32 bits) and objid (low 32 bits). The lock is
        // per database: the same key held in another database of the server blocks nothing here.
        await using var holder = new NpgsqlCommand($"""
            SELECT 'pid ' || a.pid || ' (' || coalesce(nullif(a.application_name, ''), 'no application name') || ', ' || coalesce(a.state, '?') || ')'
            FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
            WHERE l.locktype = 'advisory' AND l.granted AND l.classid = {MigrationLock >> 32} AND l.objid = {MigrationLock & 0xFFFFFFFF}
              AND l.database = (SELECT oid FROM pg_database WHERE datname = current_database())
            LIMIT 1
            """, connection);
        return await holder.ExecuteScalarAsync(ct) as string ?? "a session that has just let go";
    }

    [LoggerMessage(EventId = 2210, Level = LogLevel.Information, Message = "Schema up to date: {Applied} scripts applied in {ElapsedMs} ms")]
    private static partial void LogMigrated(ILogger logger, int applied, long elapsedMs);

    [LoggerMessage(EventId = 2211, Level = LogLevel.Warning, Message = "Waiting {Seconds} s for the schema migration lock, held by {Holder}")]
    private static partial void LogWaiting(ILogger logger, long seconds, string holder);

    private static async Task ExecuteAsync(NpgsqlConnection connection, NpgsqlTransaction? tx, string sql, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(sql, connection, tx);
        await command.ExecuteNonQueryAsync(ct);
    }

    private static async Task<string> ReadAsync(Assembly assembly, string name, CancellationToken ct)
    {
        await using var stream = assembly.GetManifestResourceStream(name)!;
        using var reader = new StreamReader(stream);
        return await reader.ReadToEndAsync(ct);
    }
}
