using System.Reflection;
using Npgsql;

namespace Slots.Storage.Postgres;

/// <summary>
/// Applies the embedded postgres/NNN_*.sql scripts in order, each once, recording what ran.
/// Several API instances start at once: a session advisory lock lets one of them migrate while
/// the others wait, then find every version recorded.
/// </summary>
public sealed class PostgresSchema(NpgsqlDataSource dataSource) : ISchemaMigrator
{
    private const string Prefix = "postgres/";

    // Any constant both sides agree on; 'slots' in ASCII.
    private const long MigrationLock = 0x736C6F7473;

    public async Task MigrateAsync(CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await ExecuteAsync(connection, null, $"SELECT pg_advisory_lock({MigrationLock})", ct);
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
            }
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
