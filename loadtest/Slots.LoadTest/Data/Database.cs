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

    /// <summary>
    /// The work again, up to <paramref name="tries"/> times in all, when the database chose it as a deadlock's victim
    /// (PostgreSQL's 40P01): the transaction was rolled back whole, so running it again is safe. Against a running stack
    /// the benchmark's own writes meet its jobs' (the flush, the SMS relay) on the same tables.
    /// </summary>
    public static async Task<T> AgainOnDeadlockAsync<T>(Func<Task<T>> work, int tries = 5)
    {
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                return await work();
            }
            catch (DbException ex) when (ex.SqlState == "40P01" && attempt < tries)
            {
                await Task.Delay(TimeSpan.FromMilliseconds(100 * attempt));
            }
        }
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
