using System.Reflection;
using Microsoft.Data.Sqlite;

namespace Slots.Storage.Sqlite;

/// <summary>Applies the embedded sqlite/NNN_*.sql scripts in order, each once, recording what ran.</summary>
public static class SqliteSchema
{
    public static async Task MigrateAsync(string connectionString, CancellationToken ct)
    {
        await using var connection = new SqliteConnection(connectionString);
        await connection.OpenAsync(ct);
        await SqliteConnections.ConfigureAsync(connection, ct);
        await using (var create = connection.CreateCommand())
        {
            create.CommandText = """
                PRAGMA journal_mode = WAL;
                CREATE TABLE IF NOT EXISTS schema_migrations (version TEXT NOT NULL PRIMARY KEY, applied_at INTEGER NOT NULL);
                """;
            await create.ExecuteNonQueryAsync(ct);
        }

        var assembly = typeof(SqliteSchema).Assembly;
        var scripts = assembly.GetManifestResourceNames()
            .Where(n => n.StartsWith("sqlite/", StringComparison.Ordinal))
            .Order(StringComparer.Ordinal);
        foreach (var script in scripts)
        {
            var version = script["sqlite/".Length..];
            // IMMEDIATE takes the write lock first, so two processes starting together apply each script once.
            await using var tx = connection.BeginTransaction(deferred: false);
            await using var check = connection.CreateCommand();
            check.Transaction = tx;
            check.CommandText = "SELECT COUNT(*) FROM schema_migrations WHERE version = $v";
            check.Parameters.AddWithValue("$v", version);
            if ((long)(await check.ExecuteScalarAsync(ct))! > 0)
            {
                continue;
            }
            await using var apply = connection.CreateCommand();
            apply.Transaction = tx;
            apply.CommandText = await ReadAsync(assembly, script, ct);
            await apply.ExecuteNonQueryAsync(ct);
            await using var record = connection.CreateCommand();
            record.Transaction = tx;
            record.CommandText = "INSERT INTO schema_migrations (version, applied_at) VALUES ($v, unixepoch())";
            record.Parameters.AddWithValue("$v", version);
            await record.ExecuteNonQueryAsync(ct);
            await tx.CommitAsync(ct);
        }
    }

    private static async Task<string> ReadAsync(Assembly assembly, string name, CancellationToken ct)
    {
        await using var stream = assembly.GetManifestResourceStream(name)!;
        using var reader = new StreamReader(stream);
        return await reader.ReadToEndAsync(ct);
    }
}
