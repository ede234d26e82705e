using Microsoft.Data.Sqlite;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Slots.Reservations;
using Slots.Storage.Ef;
using Slots.Storage.Sqlite;

namespace Slots.Storage.Sqlite.Tests;

/// <summary>
/// A pair's two halves in the writer's one operation (issue 41 item 3): the first dose on a hot day,
/// the second on a disk day. A failure at the pair's last write (its link; a trigger stands in for a
/// crash between the halves) rolls the whole operation back, first seat and second reservation too,
/// and the other bookings of the same group commit stand.
/// </summary>
public sealed class PairWriterTests : IAsyncDisposable
{
    private const int Place = 1, Nine = 540;

    private static readonly DateTimeOffset Now = DateTimeOffset.FromUnixTimeSeconds(DateTimeOffset.UtcNow.ToUnixTimeSeconds());
    private static readonly DateOnly Today = DateOnly.FromDateTime(Now.UtcDateTime);
    private static readonly DateOnly HotDay = Today.AddDays(2), DiskDay = Today.AddDays(40), Horizon = Today.AddDays(30);

    private readonly string _folder = Directory.CreateTempSubdirectory("slots-pairs-").FullName;
    private readonly string _connectionString;
    private readonly ServiceProvider _services;

    public PairWriterTests()
    {
        _connectionString = $"Data Source={Path.Combine(_folder, "p.db")};Pooling=True";
        var services = new ServiceCollection();
        services.AddSingleton(new SqliteWriter(_connectionString, maxBatch: 100, NullLogger<SqliteWriter>.Instance));
        services.AddSingleton(new SqliteConnectionString(_connectionString));
        services.AddSingleton<SqliteReservationStore>();
        services.AddEfColdSide<SqliteDialect>(_connectionString);
        _services = services.BuildServiceProvider();
    }

    public async ValueTask DisposeAsync()
    {
        await _services.DisposeAsync();
        SqliteConnection.ClearAllPools();
        Directory.Delete(_folder, recursive: true);
    }

    [Fact]
    public async Task A_failure_between_the_halves_leaves_neither_and_the_batch_s_other_bookings_stand()
    {
        var ct = TestContext.Current.CancellationToken;
        await CreateAsync(ct);
        var store = _services.GetRequiredService<SqliteReservationStore>();
        await ExecuteAsync("CREATE TRIGGER crash_between_halves BEFORE INSERT ON dose_pairs BEGIN SELECT RAISE(ABORT, 'crash'); END", ct);
        var pair = Pair("paired", "key-pair");
        var single = new ReserveCommand(new SlotKey(Place, HotDay, Nine, 1), "single", "+421905000002", "Name", "sk", ConfirmationCode.New(),
            "key-single", "fp-single", Now);

        var both = new[] { store.ReserveAsync(pair, ct).AsTask(), store.ReserveAsync(single, ct).AsTask() };
        await Assert.ThrowsAnyAsync<Exception>(() => both[0]);
        Assert.Equal(ReservationStatus.Reserved, (await both[1])!.Value.Status);

        Assert.Equal(0L, await ScalarAsync("""
            SELECT (SELECT count(*) FROM hot_seats WHERE code = $first)
                 + (SELECT count(*) FROM hot_reservations WHERE person_hash = 'paired')
                 + (SELECT count(*) FROM reservations WHERE person_hash = 'paired')
                 + (SELECT count(*) FROM changes WHERE person_hash = 'paired')
                 + (SELECT count(*) FROM active_persons WHERE person_hash = 'paired')
                 + (SELECT count(*) FROM idempotency WHERE key = 'key-pair')
            """, pair.NewCode, ct));

        await ExecuteAsync("DROP TRIGGER crash_between_halves", ct);
        var retried = (await store.ReserveAsync(pair, ct))!.Value;
        Assert.Equal(ReservationStatus.Reserved, retried.Status);
        Assert.Equal(DiskDay, retried.Second!.Day);
        Assert.Equal(1L, await ScalarAsync("SELECT count(*) FROM reservations WHERE code = $first AND cancelled_at IS NULL", pair.SecondCode!, ct));
        Assert.Equal(1L, await ScalarAsync("SELECT count(*) FROM dose_pairs WHERE first_code = $first", pair.NewCode, ct));
        Assert.Equal(StartsAt(DiskDay) + (15 * 60), await ScalarAsync("SELECT ends_at FROM active_persons WHERE code = $first", pair.NewCode, ct));
    }

    private static ReserveCommand Pair(string person, string key) =>
        new(new SlotKey(Place, HotDay, Nine, 1), person, "+421905000001", "Name", "sk", ConfirmationCode.New(), key, "fp-" + key, Now,
            Second: new SecondDoseRange(DiskDay.AddDays(-3), DiskDay.AddDays(3), Nine), SecondCode: ConfirmationCode.New());

    private async Task ExecuteAsync(string sql, CancellationToken ct)
    {
        await using var connection = new SqliteConnection(_connectionString);
        await connection.OpenAsync(ct);
        await using var command = new SqliteCommand(sql, connection);
        await command.ExecuteNonQueryAsync(ct);
    }

    private async Task<long> ScalarAsync(string sql, string first, CancellationToken ct)
    {
        await using var connection = new SqliteConnection(_connectionString);
        await connection.OpenAsync(ct);
        await using var command = new SqliteCommand(sql, connection);
        command.Parameters.AddWithValue("$first", first);
        return (long)(await command.ExecuteScalarAsync(ct))!;
    }

    /// <summary>A place with the default service at 09:00: 2 seats on a hot day (loaded into the hot tables), 1 on a disk day.</summary>
    private async Task CreateAsync(CancellationToken ct)
    {
        await SqliteSchema.MigrateAsync(_connectionString, ct);
        await using var connection = new SqliteConnection(_connectionString);
        await connection.OpenAsync(ct);
        await using var insert = connection.CreateCommand();
        insert.CommandText = """
            INSERT INTO places (id, name, address, region, time_zone, hot_until) VALUES (1, 'Site', 'Street 1', 'BA', 'UTC', $horizon);
            INSERT INTO place_services (place_id, service_id, seats) VALUES (1, 1, 2);
            INSERT INTO slots (place_id, day, start_minute, service_id, minutes, capacity, starts_at)
            VALUES (1, $hot, 540, 1, 15, 2, $hotStarts), (1, $disk, 540, 1, 15, 1, $diskStarts);
            """;
        insert.Parameters.AddWithValue("$horizon", Horizon);
        insert.Parameters.AddWithValue("$hot", HotDay);
        insert.Parameters.AddWithValue("$disk", DiskDay);
        insert.Parameters.AddWithValue("$hotStarts", StartsAt(HotDay));
        insert.Parameters.AddWithValue("$diskStarts", StartsAt(DiskDay));
        await insert.ExecuteNonQueryAsync(ct);
        await using var scope = _services.CreateAsyncScope();
        await scope.ServiceProvider.GetRequiredService<HotWindowLoader>().LoadSeatsAsync(Place, HotDay, HotDay, ct);
    }

    private static long StartsAt(DateOnly day) => new DateTimeOffset(day.ToDateTime(new TimeOnly(9, 0)), TimeSpan.Zero).ToUnixTimeSeconds();
}
