using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging.Abstractions;
using Slots.Reservations;
using Slots.Storage.Ef;
using Slots.Storage.Sqlite;

namespace Slots.Storage.Sqlite.Tests;

/// <summary>
/// The service in SQLite's keys (issue 41), at the store, with explicit keys: antigen (the default
/// service) and PCR at the same minute of one place have seats of their own, on a hot day (the
/// writer's hot path) and on a disk day (the shared EF cold path), and the window move copies each
/// disk booking into its own service's seats. One person may hold an antigen and a PCR booking at
/// once, never two of one service.
/// </summary>
public sealed class ServiceKeyTests : IAsyncDisposable
{
    private const int Place = 1, Antigen = 1, Pcr = 2, Nine = 540;

    private static readonly DateTimeOffset Now = DateTimeOffset.FromUnixTimeSeconds(DateTimeOffset.UtcNow.ToUnixTimeSeconds());
    private static readonly DateOnly Today = DateOnly.FromDateTime(Now.UtcDateTime);
    private static readonly DateOnly HotDay = Today.AddDays(2), ColdDay = Today.AddDays(40), Horizon = Today.AddDays(30);

    private readonly string _folder = Directory.CreateTempSubdirectory("slots-services-").FullName;
    private readonly string _connectionString;
    private readonly ServiceProvider _services;
    private int _keys;

    public ServiceKeyTests()
    {
        _connectionString = $"Data Source={Path.Combine(_folder, "s.db")};Pooling=True";
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
    public async Task On_a_hot_day_two_services_at_one_minute_have_seats_of_their_own_and_a_person_may_hold_one_of_each()
    {
        var ct = TestContext.Current.CancellationToken;
        await CreateAsync(ct);
        var store = _services.GetRequiredService<SqliteReservationStore>();
        var antigen = new SlotKey(Place, HotDay, Nine, Antigen);
        var pcr = new SlotKey(Place, HotDay, Nine, Pcr);

        var aAntigen = await ReserveAsync(store, antigen, "person-a", ct);
        var aPcr = await ReserveAsync(store, pcr, "person-a", ct);
        var aSecondAntigen = await ReserveAsync(store, antigen, "person-a", ct);
        var bAntigen = await ReserveAsync(store, antigen, "person-b", ct);
        var cAntigen = await ReserveAsync(store, antigen, "person-c", ct);
        var cPcr = await ReserveAsync(store, pcr, "person-c", ct);

        Assert.Equal(ReservationStatus.Reserved, aAntigen.Status);
        Assert.Equal(ReservationStatus.Reserved, aPcr.Status);
        Assert.Equal(new ReserveResult(ReservationStatus.AlreadyBooked, aAntigen.Code), aSecondAntigen);
        Assert.Equal(ReservationStatus.Reserved, bAntigen.Status);
        Assert.Equal(ReservationStatus.SlotFull, cAntigen.Status); // antigen's two seats are A's and B's; PCR's are its own
        Assert.Equal(ReservationStatus.Reserved, cPcr.Status);
        Assert.Equal(30, cPcr.Minutes); // the PCR slot's length, not antigen's

        Assert.Equal(pcr, (await store.FindAsync(aPcr.Code!, ct))!.Slot);
        Assert.Equal(antigen, (await store.FindAsync(aAntigen.Code!, ct))!.Slot);
        Assert.Equal([(antigen, 0), (pcr, 0)], (await store.GetAvailabilityAsync(Place, HotDay, HotDay, ct)).Select(s => (s.Slot, s.Free)));

        // A's PCR cancelled: a PCR seat frees, antigen stays full, and A may book PCR again.
        Assert.Equal(CancelStatus.Cancelled, await store.CancelAsync(new CancelCommand(aPcr.Code!, new ContactProof(Phone, null), Now), ct));
        Assert.Equal([(antigen, 0), (pcr, 1)], (await store.GetAvailabilityAsync(Place, HotDay, HotDay, ct)).Select(s => (s.Slot, s.Free)));
        var aPcrAgain = await ReserveAsync(store, pcr, "person-a", ct);
        Assert.Equal(ReservationStatus.Reserved, aPcrAgain.Status);

        // The flush writes each booking to disk under its service.
        await using (var scope = _services.CreateAsyncScope())
        {
            await _services.GetRequiredService<EfDialect>().FlushChangesAsync(scope.ServiceProvider.GetRequiredService<SlotsDbContext>(), 100, ct);
        }
        Assert.Equal(
            new[] { (aAntigen.Code!, Antigen, false), (aPcr.Code!, Pcr, true), (bAntigen.Code!, Antigen, false), (cPcr.Code!, Pcr, false),
                (aPcrAgain.Code!, Pcr, false) }.OrderBy(r => r.Item1, StringComparer.Ordinal),
            await DiskRowsAsync(ct));
    }

    [Fact]
    public async Task On_a_disk_day_two_services_at_one_minute_have_seats_of_their_own_and_the_window_move_keeps_them_apart()
    {
        var ct = TestContext.Current.CancellationToken;
        await CreateAsync(ct);
        var cold = _services.GetRequiredService<IColdReservationStore>();
        var antigen = new SlotKey(Place, ColdDay, Nine, Antigen);
        var pcr = new SlotKey(Place, ColdDay, Nine, Pcr);

        var aAntigen = (await cold.ReserveAsync(Command(antigen, "person-a"), ct)).Value!.Value;
        var aPcr = (await cold.ReserveAsync(Command(pcr, "person-a"), ct)).Value!.Value;
        var aSecondPcr = (await cold.ReserveAsync(Command(pcr, "person-a"), ct)).Value!.Value;
        var bAntigen = (await cold.ReserveAsync(Command(antigen, "person-b"), ct)).Value!.Value;
        var cAntigen = (await cold.ReserveAsync(Command(antigen, "person-c"), ct)).Value!.Value;
        var cPcr = (await cold.ReserveAsync(Command(pcr, "person-c"), ct)).Value!.Value;

        Assert.Equal(ReservationStatus.Reserved, aAntigen.Status);
        Assert.Equal(ReservationStatus.Reserved, aPcr.Status);
        Assert.Equal(new ReserveResult(ReservationStatus.AlreadyBooked, aPcr.Code), aSecondPcr);
        Assert.Equal(ReservationStatus.Reserved, bAntigen.Status);
        Assert.Equal(ReservationStatus.SlotFull, cAntigen.Status);
        Assert.Equal(ReservationStatus.Reserved, cPcr.Status);
        Assert.Equal(pcr, (await cold.FindAsync(cPcr.Code!, ct))!.Slot);
        var (_, slots) = await cold.AvailabilityAsync(Place, ColdDay, ColdDay, ct);
        Assert.Equal([(antigen, 0), (pcr, 0)], slots.Select(s => (s.Slot, s.Free)));

        // The day enters the window: each booking takes a seat of its own service's slot.
        await using (var scope = _services.CreateAsyncScope())
        {
            var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
            var loader = scope.ServiceProvider.GetRequiredService<HotWindowLoader>();
            await using var tx = await db.Database.BeginTransactionAsync(ct);
            await loader.LoadSeatsAsync(Place, ColdDay, ColdDay, ct);
            Assert.Equal(4, await loader.LoadColdReservationsAsync(Place, ColdDay, ColdDay, ct));
            await tx.CommitAsync(ct);
        }
        Assert.Equal(
            new[] { (aAntigen.Code!, Antigen), (aPcr.Code!, Pcr), (bAntigen.Code!, Antigen), (cPcr.Code!, Pcr) }.OrderBy(r => r.Item1, StringComparer.Ordinal),
            await HotSeatsAsync(ColdDay, ct));
        var hot = _services.GetRequiredService<SqliteReservationStore>();
        Assert.Equal(pcr, (await hot.FindAsync(aPcr.Code!, ct))!.Slot);
        Assert.Equal([(antigen, 0), (pcr, 0)], (await hot.GetAvailabilityAsync(Place, ColdDay, ColdDay, ct)).Select(s => (s.Slot, s.Free)));
    }

    private const string Phone = "+421905000001";

    private async Task<ReserveResult> ReserveAsync(SqliteReservationStore store, SlotKey slot, string person, CancellationToken ct) =>
        (await store.ReserveAsync(Command(slot, person), ct))!.Value;

    private ReserveCommand Command(SlotKey slot, string person)
    {
        var key = "key-" + Interlocked.Increment(ref _keys);
        return new ReserveCommand(slot, person, Phone, "Name", "sk", ConfirmationCode.New(), key, key + "/" + slot, Now);
    }

    private async Task<List<(string Code, int Service, bool Cancelled)>> DiskRowsAsync(CancellationToken ct)
    {
        await using var connection = new SqliteConnection(_connectionString);
        await connection.OpenAsync(ct);
        await using var read = new SqliteCommand("SELECT code, service_id, cancelled_at IS NOT NULL FROM reservations ORDER BY code", connection);
        await using var row = await read.ExecuteReaderAsync(ct);
        var rows = new List<(string, int, bool)>();
        while (await row.ReadAsync(ct))
        {
            rows.Add((row.GetString(0), row.GetInt32(1), row.GetBoolean(2)));
        }
        return rows;
    }

    /// <summary>The booked hot seats of a day: each booking's code with the service of the seat it holds.</summary>
    private async Task<List<(string Code, int Service)>> HotSeatsAsync(DateOnly day, CancellationToken ct)
    {
        await using var connection = new SqliteConnection(_connectionString);
        await connection.OpenAsync(ct);
        await using var read = new SqliteCommand(
            "SELECT s.code, s.service_id FROM hot_seats s JOIN hot_reservations r ON r.code = s.code AND r.service_id = s.service_id "
            + "WHERE s.day = $day AND s.code IS NOT NULL ORDER BY s.code", connection);
        read.Parameters.AddWithValue("$day", day);
        await using var row = await read.ExecuteReaderAsync(ct);
        var rows = new List<(string, int)>();
        while (await row.ReadAsync(ct))
        {
            rows.Add((row.GetString(0), row.GetInt32(1)));
        }
        return rows;
    }

    /// <summary>A place offering antigen (2 seats, 15 min) and PCR (2 seats, 30 min) at 09:00 of a hot and of a disk day.</summary>
    private async Task CreateAsync(CancellationToken ct)
    {
        await SqliteSchema.MigrateAsync(_connectionString, ct);
        await using var connection = new SqliteConnection(_connectionString);
        await connection.OpenAsync(ct);
        await using var insert = connection.CreateCommand();
        insert.CommandText = """
            INSERT INTO places (id, name, address, region, time_zone, hot_until) VALUES (1, 'Site', 'Street 1', 'BA', 'UTC', $horizon);
            INSERT INTO services (id, code, name_sk, name_en) VALUES (2, 'pcr', 'PCR test', 'PCR test');
            INSERT INTO place_services (place_id, service_id, seats) VALUES (1, 1, 2), (1, 2, 2);
            INSERT INTO slots (place_id, day, start_minute, service_id, minutes, capacity, starts_at)
            VALUES (1, $hot, 540, 1, 15, 2, $hotStarts), (1, $hot, 540, 2, 30, 2, $hotStarts),
                   (1, $cold, 540, 1, 15, 2, $coldStarts), (1, $cold, 540, 2, 30, 2, $coldStarts);
            """;
        insert.Parameters.AddWithValue("$horizon", Horizon);
        insert.Parameters.AddWithValue("$hot", HotDay);
        insert.Parameters.AddWithValue("$cold", ColdDay);
        insert.Parameters.AddWithValue("$hotStarts", StartsAt(HotDay));
        insert.Parameters.AddWithValue("$coldStarts", StartsAt(ColdDay));
        await insert.ExecuteNonQueryAsync(ct);
        await using var scope = _services.CreateAsyncScope();
        await scope.ServiceProvider.GetRequiredService<HotWindowLoader>().LoadSeatsAsync(Place, HotDay, HotDay, ct);
    }

    private static long StartsAt(DateOnly day) => new DateTimeOffset(day.ToDateTime(new TimeOnly(9, 0)), TimeSpan.Zero).ToUnixTimeSeconds();
}
