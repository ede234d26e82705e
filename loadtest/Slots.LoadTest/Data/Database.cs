using System.Data.Common;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace Slots.LoadTest.Data;

public enum Provider
{
    Sqlite,
    Postgres,
}

/// <summary>A plain ADO.NET connection to the database the API under test writes to.</summary>
public static class Database
{
    public static async Task<DbConnection> OpenAsync(Provider provider, string connectionString, CancellationToken ct)
    {
        DbConnection connection = provider == Provider.Postgres
            ? new NpgsqlConnection(connectionString)
            : new SqliteConnection(connectionString);
        await connection.OpenAsync(ct);
        if (connection is SqliteConnection)
        {
            // The API may still hold the write lock for a moment after the run.
            await ExecuteAsync(connection, "PRAGMA busy_timeout = 30000", ct);
        }
        return connection;
    }

    public static async Task<long> ScalarAsync(DbConnection connection, string sql, CancellationToken ct, params object[] parameters)
    {
        await using var command = Command(connection, sql, parameters);
        return Convert.ToInt64(await command.ExecuteScalarAsync(ct) ?? 0L, System.Globalization.CultureInfo.InvariantCulture);
    }

    public static async Task<int> ExecuteAsync(DbConnection connection, string sql, CancellationToken ct, params object[] parameters)
    {
        await using var command = Command(connection, sql, parameters);
        command.CommandTimeout = 600;
        return await command.ExecuteNonQueryAsync(ct);
    }

    /// <summary>Parameters are named p0, p1, … in the SQL (@p0).</summary>
    public static DbCommand Command(DbConnection connection, string sql, IReadOnlyList<object> parameters)
    {
        var command = connection.CreateCommand();
        command.CommandText = sql;
        for (var i = 0; i < parameters.Count; i++)
        {
            var p = command.CreateParameter();
            p.ParameterName = $"@p{i}";
            p.Value = parameters[i];
            command.Parameters.Add(p);
        }
        return command;
    }
}
