using System.Data;
using Microsoft.Data.SqlClient;
using Microsoft.Extensions.Logging.Abstractions;
using Slots.Reservations;
using Slots.Storage.SqlServer;

namespace Slots.Storage.SqlServer.Tests.Contract;

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
    private readonly List<SqlServerBatcher> _batchers = [];
    private SqlServerReservationStore? _store;
    private SqlServerColdReservationStore? _coldStore;

    public static string? ConnectionString =>
        Environment.GetEnvironmentVariable(Variable) is { Length: > 0 } value ? value : null;

    public SqlServerReservationStore Store => _store ?? throw new InvalidOperationException("Not configured.");

    /// <summary>The batcher behind <see cref="Store"/>.</summary>
    public SqlServerBatcher Batcher => _batchers.Count > 0 ? _batchers[0] : throw new InvalidOperationException("Not configured.");

    public SqlServerColdReservationStore ColdStore => _coldStore ?? throw new InvalidOperationException("Not configured.");

    public async ValueTask InitializeAsync()
    {
        if (ConnectionString is not { } connectionString)
        {
            return;
        }
        await SqlServerMigrator.MigrateAsync(connectionString, CancellationToken.None);
        _store = Instance(new SqlServerBatchOptions());
        _coldStore = new SqlServerColdReservationStore(new SqlServerConnectionString(connectionString),
            SqlServerRetryPolicy.For(new SqlServerRetryOptions { MaxAttempts = 10 }));
    }

    /// <summary>
    /// Another API instance's store: its own batcher (no in-process state shared with the others)
    /// on the same database, retrying as the fixture's store does.
    /// </summary>
    public SqlServerReservationStore Instance(SqlServerBatchOptions batch)
    {
        var connectionString = new SqlServerConnectionString(_connectionString ?? throw new InvalidOperationException("Not configured."));
        var batcher = new SqlServerBatcher(connectionString, batch, NullLogger<SqlServerBatcher>.Instance);
        _batchers.Add(batcher);
        return new SqlServerReservationStore(connectionString, SqlServerRetryPolicy.For(new SqlServerRetryOptions { MaxAttempts = 10 }), batcher);
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var batcher in _batchers)
        {
            await batcher.DisposeAsync();
        }
    }

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
        var keys = await NewColdPlaceAsync(slots);
        await MoveIntoWindowAsync(keys[0].PlaceId, DateOnly.FromDateTime(Now.UtcDateTime).AddDays(30));
        return keys;
    }

    /// <summary>
    /// A new place whose stored horizon is today, with the given slots in the catalogue only: every
    /// one of its days takes the cold path until <see cref="MoveIntoWindowAsync"/> moves it in.
    /// </summary>
    public async Task<SlotKey[]> NewColdPlaceAsync(params (int DaysAhead, int StartMinute, int Capacity)[] slots)
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
        return [.. keys];
    }

    /// <summary>The window mover: days [today, through] of the place become hot (seats and cold reservations copied, horizon moved).</summary>
    public async Task MoveIntoWindowAsync(int placeId, DateOnly through)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync();
        await using var load = new SqlCommand("dbo.load_hot_days", connection) { CommandType = CommandType.StoredProcedure };
        load.Parameters.Add("@place_id", SqlDbType.Int).Value = placeId;
        load.Parameters.Add("@from", SqlDbType.Date).Value = DateOnly.FromDateTime(Now.UtcDateTime).ToDateTime(TimeOnly.MinValue);
        load.Parameters.Add("@to", SqlDbType.Date).Value = through.ToDateTime(TimeOnly.MinValue);
        await load.ExecuteNonQueryAsync();
    }

    /// <summary>A person's registry row whose reservation ended before <see cref="Now"/> (what eviction has not yet trimmed).</summary>
    public async Task AddEndedPersonAsync(string personHash, string code)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync();
        await using var insert = new SqlCommand(
            "INSERT dbo.active_persons (person_hash, code, ends_at) VALUES (@person, @code, @ended)", connection);
        insert.Parameters.Add("@person", SqlDbType.VarChar, 64).Value = personHash;
        insert.Parameters.Add("@code", SqlDbType.VarChar, 16).Value = code;
        insert.Parameters.Add("@ended", SqlDbType.BigInt).Value = Now.ToUnixTimeSeconds() - 60;
        await insert.ExecuteNonQueryAsync();
    }

    /// <summary>The disk rows of a place: (code, start minute, seat, cancelled).</summary>
    public async Task<List<(string Code, int StartMinute, int SeatNo, bool Cancelled)>> DiskRowsAsync(int placeId)
    {
        await using var connection = new SqlConnection(_connectionString);
        await connection.OpenAsync();
        await using var query = new SqlCommand(
            "SELECT code, start_minute, seat_no, cancelled_at FROM dbo.reservations WHERE place_id = @place ORDER BY code", connection);
        query.Parameters.Add("@place", SqlDbType.Int).Value = placeId;
        await using var row = await query.ExecuteReaderAsync();
        var rows = new List<(string, int, int, bool)>();
        while (await row.ReadAsync())
        {
            rows.Add((row.GetString(0), row.GetInt32(1), row.GetInt32(2), !row.IsDBNull(3)));
        }
        return rows;
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
