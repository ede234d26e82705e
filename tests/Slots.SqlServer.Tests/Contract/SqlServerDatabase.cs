using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Reservations;
using Slots.Storage.SqlServer;

namespace Slots.SqlServer.Tests.Contract;

/// <summary>
/// A real SQL Server named by the SLOTS_SQLSERVER connection string, migrated once per run.
/// Without it every contract test is reported SKIPPED, never passed.
/// </summary>
public sealed class SqlServerDatabase : IAsyncLifetime
{
    public const string Variable = "SLOTS_SQLSERVER";

    /// <summary>The instant every contract test calls "now"; slots start the next days.</summary>
    public static readonly DateTimeOffset Now = new(DateTime.UtcNow.Date.AddHours(12), TimeSpan.Zero);

    private readonly string? _connectionString = ConnectionString;
    private SqlServerReservationStore? _store;

    public static string? ConnectionString =>
        Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } value ? value : null;

    public SqlServerReservationStore Store => _store ?? throw new InvalidOperationException("Not configured.");

    public async ValueTask InitializeAsync()
    {
        if (ConnectionString is not { } connectionString)
        {
            return;
        }
        await SqlServerMigrator.MigrateAsync(connectionString, CancellationToken.None);
        _store = new SqlServerReservationStore(new SqlServerConnectionString(connectionString),
            SqlServerRetryPolicy.For(new SqlServerRetryOptions { MaxAttempts = 10 }));
    }

    public ValueTask DisposeAsync() => ValueTask.CompletedTask;

    public static void SkipUnlessConfigured()
    {
        if (ConnectionString is null)
        {
            Assert.Skip($"{Variable} is not set: these tests need a SQL Server 2016 SP1+ (see docs/sqlserver.md).");
        }
    }

    /// <summary>A new place with the given slots on one day, loaded into the hot window. Returns its slot keys in order.</summary>
    public async Task<SlotKey[]> NewPlaceAsync(params (int DaysAhead, int StartMinute, int Capacity)[] slots)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync();
        var firstDay = DateOnly.FromDateTime(Now.UtcDateTime);
        int placeId;
        await using (var place = new SqlCommand("""
            INSERT dbo.places (name, address, region, time_zone, hot_until) OUTPUT INSERTED.id
            VALUES (N'Contract test', N'Test street 1', N'Test', 'Etc/UTC', @horizon)
            """, connection))
        {
            place.Parameters.Add("@horizon", SqlDbType.Date).Value = firstDay.ToDateTime(TimeOnly.MinValue);
            placeId = (int)(await place.ExecuteScalarAsync())!;
        }
        var keys = new List<SlotKey>();
        foreach (var (daysAhead, startMinute, capacity) in slots)
        {
            var day = firstDay.AddDays(daysAhead);
            var startsAt = new DateTimeOffset(day.ToDateTime(TimeOnly.MinValue), TimeSpan.Zero).AddMinutes(startMinute).ToUnixTimeSeconds();
            await using var slot = new SqlCommand("""
                INSERT dbo.slots (place_id, day, start_minute, minutes, capacity, starts_at)
                VALUES (@place, @day, @minute, 15, @capacity, @starts)
                """, connection);
            slot.Parameters.Add("@place", SqlDbType.Int).Value = placeId;
            slot.Parameters.Add("@day", SqlDbType.Date).Value = day.ToDateTime(TimeOnly.MinValue);
            slot.Parameters.Add("@minute", SqlDbType.Int).Value = startMinute;
            slot.Parameters.Add("@capacity", SqlDbType.Int).Value = capacity;
            slot.Parameters.Add("@starts", SqlDbType.BigInt).Value = startsAt;
            await slot.ExecuteNonQueryAsync();
            keys.Add(new SlotKey(placeId, day, startMinute));
        }
        await using (var load = new SqlCommand("dbo.load_hot_days", connection) { CommandType = CommandType.StoredProcedure })
        {
            load.Parameters.Add("@place_id", SqlDbType.Int).Value = placeId;
            load.Parameters.Add("@from", SqlDbType.Date).Value = firstDay.ToDateTime(TimeOnly.MinValue);
            load.Parameters.Add("@to", SqlDbType.Date).Value = firstDay.AddDays(30).ToDateTime(TimeOnly.MinValue);
            await load.ExecuteNonQueryAsync();
        }
        return [.. keys];
    }

    public async Task<int> CountAsync(string table, string code)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync();
        // table comes from the tests' own constants, never from input
        await using var count = new SqlCommand($"SELECT COUNT(*) FROM dbo.{table} WHERE code = @code", connection);
        count.Parameters.Add("@code", SqlDbType.VarChar, 16).Value = code;
        return (int)(await count.ExecuteScalarAsync())!;
    }
}
