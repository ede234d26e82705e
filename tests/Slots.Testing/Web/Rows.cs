using System.Data.Common;
using Microsoft.Data.SqlClient;
using Microsoft.Data.Sqlite;
using Npgsql;

namespace Slots.Testing.Web;

/// <summary>A reservation row as the contract tests look at it, hot or on disk.</summary>
public sealed record HeldSeat(string Code, int StartMinute, int SeatNo, string PersonHash, long? CancelledAt);

/// <summary>
/// Plain SQL against a host's database, whatever the backend: the contract suite checks the
/// tables with the same statements on SQLite, PostgreSQL and SQL Server (not through the code under
/// test's own EF Core model). Table and column names are the same on all three.
/// </summary>
public sealed class Rows(IReadOnlyDictionary<string, string?> settings)
{
    private DbConnection Connect()
    {
        var connectionString = settings["ConnectionStrings:Slots"];
        return settings["Slots:Storage:Provider"] switch
        {
            "Postgres" => new NpgsqlConnection(connectionString),
            "SqlServer" => new SqlConnection(connectionString),
            _ => new SqliteConnection(connectionString),
        };
    }

    public async Task<List<T>> QueryAsync<T>(string sql, Func<DbDataReader, T> map, params (string Name, object Value)[] args)
    {
        await using var connection = Connect();
        await connection.OpenAsync();
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        foreach (var (name, value) in args)
        {
            var parameter = command.CreateParameter();
            parameter.ParameterName = name;
            parameter.Value = value;
            command.Parameters.Add(parameter);
        }
        await using var reader = await command.ExecuteReaderAsync();
        var rows = new List<T>();
        while (await reader.ReadAsync())
        {
            rows.Add(map(reader));
        }
        return rows;
    }

    /// <summary>Runs a statement that writes rows a test builds directly (data the API cannot make yet); answers the rows it changed.</summary>
    public async Task<int> ExecuteAsync(string sql, params (string Name, object Value)[] args)
    {
        await using var connection = Connect();
        await connection.OpenAsync();
        await using var command = connection.CreateCommand();
        command.CommandText = sql;
        foreach (var (name, value) in args)
        {
            var parameter = command.CreateParameter();
            parameter.ParameterName = name;
            parameter.Value = value;
            command.Parameters.Add(parameter);
        }
        return await command.ExecuteNonQueryAsync();
    }

    public async Task<long> CountAsync(string sql, params (string Name, object Value)[] args) =>
        (await QueryAsync(sql, r => Convert.ToInt64(r.GetValue(0), System.Globalization.CultureInfo.InvariantCulture), args)).Single();

    /// <summary>The hot reservations of a place.</summary>
    public Task<List<HeldSeat>> HotAsync(int placeId) => QueryAsync(
        "SELECT code, start_minute, seat_no, person_hash FROM hot_reservations WHERE place_id = @place",
        r => new HeldSeat(r.GetString(0), Int(r, 1), Int(r, 2), r.GetString(3), null), ("@place", placeId));

    /// <summary>The disk reservations of a place, cancelled ones included.</summary>
    public Task<List<HeldSeat>> DiskAsync(int placeId) => QueryAsync(
        "SELECT code, start_minute, seat_no, person_hash, cancelled_at FROM reservations WHERE place_id = @place",
        r => new HeldSeat(r.GetString(0), Int(r, 1), Int(r, 2), r.GetString(3),
            r.IsDBNull(4) ? null : Convert.ToInt64(r.GetValue(4), System.Globalization.CultureInfo.InvariantCulture)),
        ("@place", placeId));

    private static int Int(DbDataReader r, int i) => Convert.ToInt32(r.GetValue(i), System.Globalization.CultureInfo.InvariantCulture);
}
