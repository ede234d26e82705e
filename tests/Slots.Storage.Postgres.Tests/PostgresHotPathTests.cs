using Npgsql;
using Slots.Reservations;
using Slots.Storage.Postgres;
using Slots.Testing;

namespace Slots.Storage.Postgres.Tests;

/// <summary>
/// The hot-path functions under races the HTTP suite cannot stage: two API instances (two data
/// sources, no shared in-process state) hitting one database, and migrators starting together.
/// </summary>
public sealed partial class PostgresHotPathTests : IAsyncLifetime
{
    private static readonly DateOnly Day = new(2099, 1, 1);
    private static readonly DateTimeOffset Now = DateTimeOffset.FromUnixTimeSeconds(1_000_000);

    private NpgsqlDataSource? _first;
    private NpgsqlDataSource? _second;
    private PostgresReservationStore[] _instances = [];
    private readonly List<PostgresBatcher> _batchers = [];
    private int _place;

    private PostgresReservationStore[] Instances => _instances;

    /// <summary>An API instance's store: its own data source and its own batcher, as in the host.</summary>
    private PostgresReservationStore Instance(NpgsqlDataSource dataSource, int writers = 1)
    {
        var batcher = new PostgresBatcher(dataSource, new PostgresBatchOptions { Writers = writers },
            Microsoft.Extensions.Logging.Abstractions.NullLogger<PostgresBatcher>.Instance);
        _batchers.Add(batcher);
        return new PostgresReservationStore(dataSource, batcher);
    }

    public async ValueTask InitializeAsync()
    {
        var server = await SharedPostgres.OrSkipAsync();
        var connectionString = await server.CreateDatabaseAsync("hot" + Guid.NewGuid().ToString("N")[..12], TestContext.Current.CancellationToken);
        _first = NpgsqlDataSource.Create(connectionString);
        _second = NpgsqlDataSource.Create(connectionString);
        _instances = [Instance(_first), Instance(_second, writers: 2)];
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
        foreach (var batcher in _batchers)
        {
            await batcher.DisposeAsync();
        }
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
        // Three rows per booking: its seat, its person row and its reservation, which carries the
        // key, the confirmation SMS and the change record for the flush. A slot-full for a person
        // holding nothing writes nothing.
        Assert.Equal(3L, await ScalarAsync<long>("SELECT count(*) FROM active_persons"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM active_persons WHERE code NOT IN (SELECT code FROM hot_reservations)"));
        Assert.Equal(3L, await ScalarAsync<long>(
            "SELECT count(*) FROM hot_reservations WHERE idem_key IS NOT NULL AND event_id IS NOT NULL AND sms_pending AND flush_pending"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT (SELECT count(*) FROM outbox) + (SELECT count(*) FROM changes) + (SELECT count(*) FROM idempotency)"));
    }

    [Fact]
    public async Task A_slot_full_decided_at_the_seat_claim_leaves_no_key_behind_and_a_retry_books_once_a_seat_is_back()
    {
        await SeatsAsync(minute: 800, capacity: 1);
        // Another transaction holds the last seat, not yet committed: the probe still sees it free,
        // the claim (which skips locked seats) finds none. The race of a stampede, made to order.
        await using var holder = await _first!.OpenConnectionAsync();
        await using var claim = await holder.BeginTransactionAsync();
        await using (var take = new NpgsqlCommand("UPDATE hot_seats SET code = 'HOLDR-00001' WHERE place_id = $1 AND start_minute = 800", holder, claim))
        {
            take.Parameters.Add(new NpgsqlParameter<int> { TypedValue = _place });
            Assert.Equal(1, await take.ExecuteNonQueryAsync());
        }

        var full = await Instances[0].ReserveAsync(Command(800, person: "late", key: "late-key"), CancellationToken.None);
        var keysAfterFull = await ScalarAsync<long>("SELECT (SELECT count(*) FROM idempotency WHERE key = 'late-key') + (SELECT count(*) FROM hot_reservations WHERE idem_key = 'late-key')");
        await claim.RollbackAsync();
        var retry = await Instances[0].ReserveAsync(Command(800, person: "late", key: "late-key"), CancellationToken.None);

        Assert.Equal(ReservationStatus.SlotFull, full!.Value.Status);
        Assert.Equal(0L, keysAfterFull);
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM active_persons WHERE person_hash = 'late' AND code <> 'C-late-key'"));
        Assert.Equal(ReservationStatus.Reserved, retry!.Value.Status);
        Assert.False(retry.Value.Replayed);
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
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations WHERE idem_key = 'stampede' AND sms_pending"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM outbox"));
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
    public async Task A_booking_cancelled_before_the_relay_and_the_flush_keeps_its_sms_its_disk_row_and_its_key()
    {
        await SeatsAsync(minute: 600, capacity: 2);
        var booked = await Instances[0].ReserveAsync(Command(600, person: "gone", key: "gone-key"), CancellationToken.None);
        var code = booked!.Value.Code!;
        var eventId = await ScalarAsync<long>($"SELECT event_id FROM hot_reservations WHERE code = '{code}'");

        // Cancelled in the same second it was made, before any relay or flush ran.
        var cancelled = await Instances[0].CancelAsync(new CancelCommand(code, new ContactProof("+421900000000", null), Now), CancellationToken.None);
        Assert.Equal(CancelStatus.Cancelled, cancelled);

        // The confirmation is still to be sent, under the id the relay may already have read, and before the cancel's SMS.
        Assert.Equal($"{eventId}:1:unsent,{eventId + 1}:2:unsent", await ScalarAsync<string>(
            $"SELECT string_agg(id || ':' || kind || ':' || CASE WHEN sent_at IS NULL THEN 'unsent' ELSE 'sent' END, ',' ORDER BY id) FROM outbox WHERE code = '{code}'"));
        // The retried request still gets its first answer.
        var replay = await Instances[1].ReserveAsync(Command(600, person: "gone", key: "gone-key", code: "OTHER-CODE"), CancellationToken.None);
        Assert.Equal((ReservationStatus.Reserved, code, true), (replay!.Value.Status, replay.Value.Code, replay.Value.Replayed));
        // The disk ends cancelled, whichever of the booking and its cancel the flush applies first.
        Assert.Equal(2, await ScalarAsync<int>("SELECT slots_flush_changes(100)"));
        Assert.Equal(1L, await ScalarAsync<long>($"SELECT count(*) FROM reservations WHERE code = '{code}' AND cancelled_at IS NOT NULL"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM changes"));
    }

    [Fact]
    public async Task The_flush_writes_new_bookings_from_their_hot_rows_once_and_the_relay_sees_their_sms_until_marked()
    {
        await SeatsAsync(minute: 600, capacity: 5);
        foreach (var i in Enumerable.Range(0, 3))
        {
            await Instances[0].ReserveAsync(Command(600, person: $"fl{i}", key: $"fl{i}"), CancellationToken.None);
        }
        var store = new PostgresSmsStore(_first!);

        var unsent = await store.ReadUnsentAsync(10, CancellationToken.None);
        await store.MarkSentAsync([unsent[0].Id], 2_000_000, CancellationToken.None);
        Assert.Equal(2, await ScalarAsync<int>("SELECT slots_flush_changes(2)"));
        Assert.Equal(1, await ScalarAsync<int>("SELECT slots_flush_changes(2)"));
        Assert.Equal(0, await ScalarAsync<int>("SELECT slots_flush_changes(2)"));

        Assert.Equal(3, unsent.Count);
        Assert.All(unsent, u => Assert.Equal(ChangeKind.Reserved, u.Kind));
        Assert.Equal(2, (await store.ReadUnsentAsync(10, CancellationToken.None)).Count);
        Assert.Equal(3L, await ScalarAsync<long>("SELECT count(*) FROM reservations r JOIN hot_reservations h USING (code) WHERE r.seat_no = h.seat_no"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations WHERE flush_pending"));
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

    [Fact]
    public async Task Racers_inside_one_batch_get_distinct_seats_and_see_each_others_person_and_key()
    {
        await SeatsAsync(minute: 600, capacity: 3);
        await SeatsAsync(minute: 700, capacity: 50);
        var single = Instance(_first!);
        await using var hold = await HoldKeyAsync("hold");
        var blocked = single.ReserveAsync(Command(700, person: "blocker", key: "hold"), CancellationToken.None).AsTask();
        await WaitForLockWaitAsync();

        // Queued while the writer waits: they go to the database together, as one batch.
        var racers = Enumerable.Range(0, 30).Select(i => single.ReserveAsync(Command(600, person: $"r{i:00}", key: $"r{i}"), CancellationToken.None).AsTask()).ToList();
        var twice = single.ReserveAsync(Command(700, person: "twice", key: "t1"), CancellationToken.None).AsTask();
        var twiceAgain = single.ReserveAsync(Command(700, person: "twice", key: "t2"), CancellationToken.None).AsTask();
        var sameKey = single.ReserveAsync(Command(700, person: "same-key", key: "sk", code: "SK-A"), CancellationToken.None).AsTask();
        var sameKeyAgain = single.ReserveAsync(Command(700, person: "same-key", key: "sk", code: "SK-B"), CancellationToken.None).AsTask();
        await hold.RollbackAsync();
        await blocked;
        var results = await Task.WhenAll(racers);

        Assert.Equal(3, results.Count(r => r!.Value.Status == ReservationStatus.Reserved));
        Assert.Equal(27, results.Count(r => r!.Value.Status == ReservationStatus.SlotFull));
        Assert.Equal(3L, await ScalarAsync<long>("SELECT count(DISTINCT seat_no) FROM hot_reservations WHERE start_minute = 600"));
        Assert.Equal(new[] { ReservationStatus.Reserved, ReservationStatus.AlreadyBooked }, new[] { (await twice)!.Value.Status, (await twiceAgain)!.Value.Status }.Order());
        var (a, b) = ((await sameKey)!.Value, (await sameKeyAgain)!.Value);
        Assert.Equal(ReservationStatus.Reserved, a.Status);
        Assert.Equal((ReservationStatus.Reserved, a.Code, true), (b.Status, b.Code, b.Replayed));
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations WHERE person_hash = 'same-key'"));
    }

    [Fact]
    public async Task A_batch_chosen_as_a_deadlock_victim_is_retried_and_books_every_operation()
    {
        await SeatsAsync(minute: 600, capacity: 10);
        var single = Instance(_first!);
        // Another transaction holds the second operation's key and will then want the first one's person row.
        await using var other = await HoldKeyAsync("dl-b", deadlockTimeout: "30s");
        await using var blockerHold = await _first!.OpenConnectionAsync();
        await using var blockerTx = await blockerHold.BeginTransactionAsync();
        await ExecuteAsync(blockerHold, HeldKeySql("dl-hold"));
        var blocked = single.ReserveAsync(Command(600, person: "dl-0", key: "dl-hold"), CancellationToken.None).AsTask();
        await WaitForLockWaitAsync();
        var first = single.ReserveAsync(Command(600, person: "dl-a", key: "dl-a"), CancellationToken.None).AsTask();
        var second = single.ReserveAsync(Command(600, person: "dl-b", key: "dl-b"), CancellationToken.None).AsTask();
        await blockerTx.RollbackAsync();
        await blocked;
        await WaitForLockWaitAsync(); // the batch [dl-a, dl-b] took dl-a's person row and waits for the key dl-b

        // The other transaction now waits for dl-a's row: a cycle. The batch detects it first (1 s against 30 s) and is rolled back.
        await ExecuteAsync(other.Connection!, "INSERT INTO active_persons (person_hash, code, ends_at) VALUES ('dl-a', 'OTHER', 0) ON CONFLICT DO NOTHING");
        await other.RollbackAsync();

        Assert.Equal(ReservationStatus.Reserved, (await first)!.Value.Status);
        Assert.Equal(ReservationStatus.Reserved, (await second)!.Value.Status);
        Assert.Equal(3L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations WHERE sms_pending"));
    }

    [Fact]
    public async Task A_batch_whose_connection_dies_mid_statement_fails_every_operation_and_writes_none_of_them()
    {
        await SeatsAsync(minute: 600, capacity: 10);
        var single = Instance(_first!);
        await using var hold = await HoldKeyAsync("cut-b");
        var first = single.ReserveAsync(Command(600, person: "cut-a", key: "cut-a"), CancellationToken.None).AsTask();
        var second = single.ReserveAsync(Command(600, person: "cut-b", key: "cut-b"), CancellationToken.None).AsTask();
        await WaitForLockWaitAsync();

        await ExecuteAsync(hold.Connection!, "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND state = 'active' AND query LIKE '%slots_apply%' AND pid <> pg_backend_pid()");

        await Assert.ThrowsAnyAsync<Exception>(() => second);
        // The first operation had written its rows inside the batch's transaction: all of them went with it.
        if (await Record.ExceptionAsync(() => first) is null)
        {
            Assert.Equal(ReservationStatus.Reserved, (await first)!.Value.Status); // it was in an earlier batch that committed
        }
        else
        {
            Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM idempotency WHERE key = 'cut-a'"));
            Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations WHERE idem_key = 'cut-a'"));
            Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations WHERE person_hash = 'cut-a'"));
        }
        await hold.RollbackAsync();
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations WHERE person_hash = 'cut-b'"));

        // The client's retry with the same keys, on the writer's fresh connection, books.
        Assert.Equal(ReservationStatus.Reserved, (await single.ReserveAsync(Command(600, person: "cut-b", key: "cut-b"), CancellationToken.None))!.Value.Status);
        Assert.Equal(ReservationStatus.Reserved, (await single.ReserveAsync(Command(600, person: "cut-a", key: "cut-a"), CancellationToken.None))!.Value.Status);
    }

    [Fact]
    public async Task Six_people_for_a_slot_with_five_seats_in_one_batch_get_five_seats_and_the_sixth_leaves_nothing_behind()
    {
        await SeatsAsync(minute: 600, capacity: 5);
        await SeatsAsync(minute: 700, capacity: 5);
        var single = Instance(_first!);
        var six = await InOneBatchAsync(single, Enumerable.Range(0, 6).Select(i => Command(600, person: $"six{i}", key: $"six{i}")).ToArray());

        Assert.Equal(5, six.Count(r => r.Status == ReservationStatus.Reserved));
        Assert.All(six.Where(r => r.Status == ReservationStatus.Reserved), r => Assert.Equal(10, r.Minutes)); // the 201's length, not read back
        var loser = six.Single(r => r.Status != ReservationStatus.Reserved);
        Assert.Equal(ReservationStatus.SlotFull, loser.Status);
        Assert.Equal(5L, await ScalarAsync<long>("SELECT count(DISTINCT seat_no) FROM hot_seats WHERE start_minute = 600 AND code IS NOT NULL"));
        Assert.Equal(5L, await ScalarAsync<long>("SELECT count(*) FROM active_persons WHERE person_hash LIKE 'six%'"));
        Assert.Equal(5L, await ScalarAsync<long>(
            "SELECT count(*) FROM hot_reservations WHERE idem_key LIKE 'six%' AND code LIKE 'C-six%' AND sms_pending AND flush_pending"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM idempotency WHERE key LIKE 'six%'"));
    }

    [Fact]
    public async Task A_key_reused_with_another_body_inside_one_batch_books_the_first_and_refuses_the_second()
    {
        await SeatsAsync(minute: 600, capacity: 5);
        await SeatsAsync(minute: 700, capacity: 5);
        var single = Instance(_first!);
        var answers = await InOneBatchAsync(single,
            Command(600, person: "reuse-a", key: "reused"),
            Command(700, person: "reuse-b", key: "reused", code: "C-other"));

        Assert.Single(answers, r => r.Status == ReservationStatus.Reserved && !r.Replayed);
        Assert.Single(answers, r => r.Status == 0);
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM hot_reservations WHERE person_hash LIKE 'reuse-%'"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM active_persons ap WHERE person_hash LIKE 'reuse-%' AND NOT EXISTS (SELECT 1 FROM hot_reservations r WHERE r.code = ap.code)"));
    }

    [Fact]
    public async Task A_batch_mixing_cancel_reschedule_and_a_new_booking_for_one_code_leaves_one_consistent_state()
    {
        await SeatsAsync(minute: 600, capacity: 2);
        await SeatsAsync(minute: 700, capacity: 2);
        var single = Instance(_first!);
        var booked = await single.ReserveAsync(Command(600, person: "mixer", key: "mix-1", code: "C-MIX"), CancellationToken.None);
        Assert.Equal(ReservationStatus.Reserved, booked!.Value.Status);
        var proof = new ContactProof("+421900000000", null);

        var (cancel, move, again) = await WhileTheWriterWaitsAsync(single, "mix-hold", () => (
            single.CancelAsync(new CancelCommand("C-MIX", proof, Now), CancellationToken.None).AsTask(),
            single.RescheduleAsync(new RescheduleCommand("C-MIX", proof, new SlotKey(_place, Day, 700), Now), CancellationToken.None).AsTask(),
            single.ReserveAsync(Command(600, person: "mixer", key: "mix-2", code: "C-MIX2"), CancellationToken.None).AsTask()));

        Assert.Equal(CancelStatus.Cancelled, await cancel);
        Assert.Contains(await move, new[] { RescheduleStatus.Rescheduled, RescheduleStatus.NotFound });
        // Cancels and reschedules go before the batch's bookings: the person is free again and books.
        Assert.Equal(ReservationStatus.Reserved, (await again)!.Value.Status);
        Assert.Equal("C-MIX2", await ScalarAsync<string>("SELECT string_agg(code, ',') FROM hot_reservations WHERE person_hash = 'mixer'"));
        Assert.Equal("C-MIX2", await ScalarAsync<string>("SELECT code FROM active_persons WHERE person_hash = 'mixer'"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT count(*) FROM hot_seats WHERE code = 'C-MIX'"));
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM hot_seats WHERE code = 'C-MIX2'"));
    }

    /// <summary>Queues the commands while the instance's one writer waits on a held key, so they reach slots_apply as one batch.</summary>
    private async Task<ReserveResult[]> InOneBatchAsync(PostgresReservationStore single, params ReserveCommand[] commands)
    {
        var queued = await WhileTheWriterWaitsAsync(single, "hold-" + commands[0].IdempotencyKey,
            () => commands.Select(c => single.ReserveAsync(c, CancellationToken.None).AsTask()).ToArray());
        var answers = await Task.WhenAll(queued);
        return answers.Select(a => a ?? new ReserveResult(0, null)).ToArray();
    }

    /// <summary>
    /// Holds a key so the instance's one writer waits on it, runs <paramref name="queue"/> meanwhile
    /// (what it queues reaches slots_apply as one batch), then lets the writer go.
    /// </summary>
    private async Task<T> WhileTheWriterWaitsAsync<T>(PostgresReservationStore single, string holdKey, Func<T> queue)
    {
        await using var hold = await HoldKeyAsync(holdKey);
        var blocked = single.ReserveAsync(Command(700, person: holdKey, key: holdKey), CancellationToken.None).AsTask();
        await WaitForLockWaitAsync();
        var queued = queue();
        await hold.RollbackAsync();
        await blocked;
        return queued;
    }

    /// <summary>
    /// An uncommitted booking row under the key: a booking that writes the key (on its reservation)
    /// waits for it at the key's unique index entry.
    /// </summary>
    private string HeldKeySql(string key) => $"""
        INSERT INTO hot_reservations (code, place_id, day, start_minute, seat_no, minutes, starts_at, person_hash, phone, name,
                                      language, created_at, idem_key, fingerprint)
        VALUES ('HELD-{key}', {_place}, '2000-01-01', 0, 0, 10, 0, 'held-{key}', '+421900000000', 'Held', 'en', 0, '{key}', 'held')
        """;

    /// <summary>An open transaction holding an uncommitted booking row under the key: whoever books with the key waits for it.</summary>
    private async Task<NpgsqlTransaction> HoldKeyAsync(string key, string? deadlockTimeout = null)
    {
        var connection = await _first!.OpenConnectionAsync();
        var tx = await connection.BeginTransactionAsync();
        if (deadlockTimeout is not null)
        {
            await ExecuteAsync(connection, $"SET LOCAL deadlock_timeout = '{deadlockTimeout}'");
        }
        await ExecuteAsync(connection, HeldKeySql(key));
        return tx;
    }

    private static async Task ExecuteAsync(NpgsqlConnection connection, string sql)
    {
        await using var command = new NpgsqlCommand(sql, connection);
        await command.ExecuteNonQueryAsync();
    }

    /// <summary>
    /// Waits until a batch statement of this test's database is blocked on a lock (bounded: 20 s). The
    /// server is shared with the suite's other tests, each in a database of its own.
    /// </summary>
    private async Task WaitForLockWaitAsync()
    {
        var until = DateTime.UtcNow.AddSeconds(20);
        while (await ScalarAsync<long>("SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%slots_apply%'") == 0)
        {
            Assert.True(DateTime.UtcNow < until, "no batch came to wait on the held lock");
            await Task.Delay(20);
        }
    }

    private ReserveCommand Command(int minute, string person, string key, string? code = null, string? fingerprint = null, int service = 1) =>
        new(new SlotKey(_place, Day, minute, service), person, "+421900000000", "Test Person", "sk",
            code ?? $"C-{key}", key, fingerprint ?? $"fp-{person}-{minute}-{service}", Now);

    /// <summary>The seats of one slot of a service (the default service unless named), each slot <paramref name="minutes"/> long.</summary>
    private async Task SeatsAsync(int minute, int capacity, int service = 1, int minutes = 10, DateOnly? day = null, int? place = null)
    {
        await using var insert = _first!.CreateCommand("""
            INSERT INTO hot_seats (place_id, day, start_minute, service_id, seat_no, minutes, starts_at, code)
            SELECT $1, $2, $3, $4, n, $5, $6, NULL FROM generate_series(1, $7) n
            """);
        insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = place ?? _place });
        insert.Parameters.Add(new NpgsqlParameter<DateOnly> { TypedValue = day ?? Day });
        insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = minute });
        insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = service });
        insert.Parameters.Add(new NpgsqlParameter<int> { TypedValue = minutes });
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
