using Npgsql;
using Slots.Reservations;
using Slots.Storage.Postgres;
using Slots.Testing;

namespace Slots.Api.Tests.Postgres;

/// <summary>
/// The hot-path functions under races the HTTP suite cannot stage: two API instances (two data
/// sources, no shared in-process state) hitting one database, and migrators starting together.
/// </summary>
public sealed class PostgresHotPathTests : IAsyncLifetime
{
    private static readonly DateOnly Day = new(2099, 1, 1);
    private static readonly DateTimeOffset Now = DateTimeOffset.FromUnixTimeSeconds(1_000_000);

    private NpgsqlDataSource? _first;
    private NpgsqlDataSource? _second;
    private int _place;

    private PostgresReservationStore[] Instances => [new(_first!), new(_second!)];

    public async ValueTask InitializeAsync()
    {
        PostgresServer server;
        try
        {
            server = await PostgresServer.SharedAsync();
        }
        catch (PostgresUnavailableException ex)
        {
            Assert.Skip(ex.Message);
            return;
        }
        var connectionString = await server.CreateDatabaseAsync("hot" + Guid.NewGuid().ToString("N")[..12], TestContext.Current.CancellationToken);
        _first = NpgsqlDataSource.Create(connectionString);
        _second = NpgsqlDataSource.Create(connectionString);
        // Four instances starting at once: the advisory lock lets one migrate, the rest find it done.
        await Task.WhenAll(Enumerable.Range(0, 4).Select(async _ =>
        {
            await using var own = NpgsqlDataSource.Create(connectionString);
            await new PostgresSchema(own).MigrateAsync(CancellationToken.None);
        }));
        _place = await ScalarAsync<int>("""
            INSERT INTO places (name, address, region, time_zone, hot_until) VALUES ('Hot', 'Street 1', 'Region', 'UTC', '2099-02-01') RETURNING id
            """);
    }

    public async ValueTask DisposeAsync()
    {
        if (_first is not null)
        {
            await _first.DisposeAsync();
        }
        if (_second is not null)
        {
            await _second.DisposeAsync();
        }
    }

    [Fact]
    public async Task Migrators_racing_at_start_apply_each_script_once()
    {
        var scripts = typeof(PostgresSchema).Assembly.GetManifestResourceNames().Count(n => n.StartsWith("postgres/", StringComparison.Ordinal));
        Assert.True(scripts >= 2);
        Assert.Equal((long)scripts, await ScalarAsync<long>("SELECT count(*) FROM schema_migrations"));
    }

    [Fact]
    public async Task Two_hundred_racers_on_two_instances_for_three_seats_get_three_distinct_seats()
    {
        await SeatsAsync(minute: 600, capacity: 3);

        var results = await Task.WhenAll(Enumerable.Range(0, 200).Select(i =>
            Instances[i % 2].ReserveAsync(Command(600, person: $"p{i}", key: $"k{i}"), CancellationToken.None).AsTask()));

        Assert.Equal(3, results.Count(r => r!.Value.Status == ReservationStatus.Reserved));
        Assert.Equal(197, results.Count(r => r!.Value.Status == ReservationStatus.SlotFull));
        Assert.Equal(3L, await ScalarAsync<long>("SELECT count(DISTINCT seat_no) FROM hot_reservations"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM hot_seats WHERE code IS NULL"));
        Assert.Equal(3L, await ScalarAsync<long>("SELECT count(*) FROM outbox"));
        Assert.Equal(3L, await ScalarAsync<long>("SELECT count(*) FROM changes"));
        Assert.Equal(200L, await ScalarAsync<long>("SELECT count(*) FROM idempotency"));
    }

    [Fact]
    public async Task One_person_racing_on_two_instances_for_two_slots_gets_one_and_the_other_is_AlreadyBooked()
    {
        await SeatsAsync(minute: 600, capacity: 50);
        await SeatsAsync(minute: 700, capacity: 50);

        for (var round = 0; round < 40; round++)
        {
            var results = await Task.WhenAll(
                Instances[0].ReserveAsync(Command(600, person: $"racer{round}", key: $"a{round}"), CancellationToken.None).AsTask(),
                Instances[1].ReserveAsync(Command(700, person: $"racer{round}", key: $"b{round}"), CancellationToken.None).AsTask());

            var won = Assert.Single(results, r => r!.Value.Status == ReservationStatus.Reserved);
            var lost = Assert.Single(results, r => r!.Value.Status == ReservationStatus.AlreadyBooked);
            Assert.Equal(won!.Value.Code, lost!.Value.Code); // same phone: it is shown the existing code
        }
        Assert.Equal(40L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations"));
        Assert.Equal(40L, await ScalarAsync<long>("SELECT count(*) FROM active_persons"));
        Assert.Equal(60L, await ScalarAsync<long>("SELECT count(*) FROM hot_seats WHERE code IS NULL"));
    }

    [Fact]
    public async Task Fifty_same_key_requests_on_two_instances_book_once_and_the_rest_replay_it()
    {
        await SeatsAsync(minute: 600, capacity: 5);

        // A new code per request, as each instance would mint: only the winner's may be booked.
        var results = await Task.WhenAll(Enumerable.Range(0, 50).Select(i =>
            Instances[i % 2].ReserveAsync(Command(600, person: "same", key: "stampede", code: $"CODE{i:00}"), CancellationToken.None).AsTask()));

        var first = Assert.Single(results, r => !r!.Value.Replayed);
        Assert.Equal(ReservationStatus.Reserved, first!.Value.Status);
        Assert.All(results, r => Assert.Equal((ReservationStatus.Reserved, first.Value.Code), (r!.Value.Status, r.Value.Code)));
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations"));
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM outbox"));
    }

    [Fact]
    public async Task A_key_reused_for_another_request_is_refused_while_racing()
    {
        await SeatsAsync(minute: 600, capacity: 5);

        var results = await Task.WhenAll(Enumerable.Range(0, 20).Select(i =>
            Instances[i % 2].ReserveAsync(Command(600, person: $"p{i % 2}", key: "shared", fingerprint: $"f{i % 2}"), CancellationToken.None).AsTask()));

        Assert.Equal(10, results.Count(r => r is null));
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations"));
    }

    [Fact]
    public async Task Cancel_and_reschedule_racing_on_one_code_leave_one_consistent_state()
    {
        await SeatsAsync(minute: 600, capacity: 1);
        await SeatsAsync(minute: 700, capacity: 1);
        var booked = await Instances[0].ReserveAsync(Command(600, person: "mover", key: "m"), CancellationToken.None);
        var proof = new ContactProof("+421900000000", null);

        var cancel = Instances[0].CancelAsync(new CancelCommand(booked!.Value.Code!, proof, Now), CancellationToken.None).AsTask();
        var move = Instances[1].RescheduleAsync(new RescheduleCommand(booked.Value.Code!, proof, new SlotKey(_place, Day, 700), Now), CancellationToken.None).AsTask();
        await Task.WhenAll(cancel, move);

        Assert.Equal(CancelStatus.Cancelled, await cancel);
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM hot_seats WHERE code IS NOT NULL"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM active_persons"));
    }

    [Fact]
    public async Task A_racer_that_cancels_and_books_again_never_holds_two()
    {
        await SeatsAsync(minute: 600, capacity: 10);
        await SeatsAsync(minute: 700, capacity: 10);
        var proof = new ContactProof("+421900000000", null);
        var first = await Instances[0].ReserveAsync(Command(600, person: "flip", key: "f0"), CancellationToken.None);

        var cancel = Instances[0].CancelAsync(new CancelCommand(first!.Value.Code!, proof, Now), CancellationToken.None).AsTask();
        var again = Instances[1].ReserveAsync(Command(700, person: "flip", key: "f1"), CancellationToken.None).AsTask();
        await Task.WhenAll(cancel, again);

        Assert.Equal(CancelStatus.Cancelled, await cancel);
        Assert.Contains((await again)!.Value.Status, new[] { ReservationStatus.Reserved, ReservationStatus.AlreadyBooked });
        Assert.True(await ScalarAsync<long>("SELECT count(*) FROM hot_reservations WHERE person_hash = 'flip'") <= 1);
        Assert.True(await ScalarAsync<long>("SELECT count(*) FROM active_persons") <= 1);
    }

    private ReserveCommand Command(int minute, string person, string key, string? code = null, string? fingerprint = null) =>
        new(new SlotKey(_place, Day, minute), person, "+421900000000", "Test Person", "sk",
            code ?? $"C-{key}", key, fingerprint ?? $"fp-{person}-{minute}", Now);

    private async Task SeatsAsync(int minute, int capacity)
    {
        await using var insert = _first!.CreateCommand("""
            INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code)
            SELECT $1, $2, $3, n, 10, $4, NULL FROM generate_series(1, $5) n
            """);
        insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = _place });
        insert.Parameters.Add(new NpgsqlParameter<DateOnly> { TypedValue = Day });
        insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = minute });
        insert.Parameters.Add(new NpgsqlParameter<long> { TypedValue = 4_000_000_000L + minute });
        insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = capacity });
        await insert.ExecuteNonQueryAsync();
    }

    private async Task<T> ScalarAsync<T>(string sql)
    {
        await using var command = _first!.CreateCommand(sql);
        return (T)(await command.ExecuteScalarAsync())!;
    }
}
