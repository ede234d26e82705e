using Npgsql;
using Slots.Reservations;

namespace Slots.Storage.Postgres.Tests;

/// <summary>A pair's two halves under a kill: slots_apply seats both in one transaction, so a session killed between them leaves neither.</summary>
public sealed partial class PostgresHotPathTests
{
    private static readonly DateOnly DiskDay = new(2099, 2, 10);

    [Fact]
    public async Task A_session_killed_between_a_pair_s_two_seats_leaves_neither_and_the_retry_books_both()
    {
        await SeatsAsync(minute: 660, capacity: 2);
        await ExecuteAsync($"""
            INSERT INTO slots (place_id, day, start_minute, service_id, minutes, capacity, starts_at)
            VALUES ({_place}, '{DiskDay:yyyy-MM-dd}', 660, 1, 10, 1, 4100000660)
            """);
        var pair = Command(660, person: "paired", key: "pair-kill") with
        {
            Second = new SecondDoseRange(DiskDay.AddDays(-5), DiskDay.AddDays(5), 660),
            SecondCode = "C-PAIR-2",
        };
        var store = Instances[0];

        // The disk slot's row held: the batch takes its first seat, then waits for the second.
        await using var holder = await _first!.OpenConnectionAsync();
        await using var hold = await holder.BeginTransactionAsync();
        await ExecuteAsync(holder, $"SELECT 1 FROM slots WHERE place_id = {_place} AND day = '{DiskDay:yyyy-MM-dd}' FOR UPDATE");
        var booking = store.ReserveAsync(pair, CancellationToken.None).AsTask();
        await WaitForLockWaitAsync();
        Assert.Equal(1L, await ScalarAsync<long>("""
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE datname = current_database() AND wait_event_type = 'Lock' AND query LIKE '%slots_apply%'
            """));

        // Killed between the halves: nothing of the pair is there (a retry of the batch, if any, waits on the held row).
        Assert.Equal(0L, await PairRowsAsync());
        await hold.RollbackAsync();
        var first = await Record.ExceptionAsync(() => booking);
        var retried = await store.ReserveAsync(pair, CancellationToken.None);

        Assert.Equal(ReservationStatus.Reserved, retried!.Value.Status);
        if (!retried.Value.Replayed)
        {
            Assert.Equal(DiskDay, retried.Value.Second!.Day); // a replay's answer carries no second: the use case reads it back
        }
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM hot_seats WHERE code = 'C-pair-kill'"));
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM reservations WHERE code = 'C-PAIR-2' AND cancelled_at IS NULL"));
        Assert.Equal(1L, await ScalarAsync<long>("SELECT count(*) FROM dose_pairs WHERE first_code = 'C-pair-kill' AND second_code = 'C-PAIR-2'"));
        Assert.Equal(4100000660L + 600, await ScalarAsync<long>("SELECT ends_at FROM active_persons WHERE person_hash = 'paired'"));
        // The first call failed with its session, or was answered by the batch's own retry: either way one pair.
        if (first is null)
        {
            Assert.Equal(ReservationStatus.Reserved, (await booking)!.Value.Status);
        }
    }

    // Regression: a batch took its pairs' disk slots in the batch's order (by person), so two batches whose pairs lay
    // the other way round deadlocked; PostgreSQL broke the cycle after deadlock_timeout (1 s) and the batch was retried:
    // in ./slots bench about 1 % of the pairs waited a second (p99 1,027 ms at the client).
    [Fact]
    public async Task A_batch_takes_its_pairs_disk_slots_in_key_order_so_a_transaction_locking_them_in_that_order_never_deadlocks_with_it()
    {
        await SeatsAsync(minute: 700, capacity: 1); // where the booking that holds the writer goes
        await SeatsAsync(minute: 800, capacity: 1);
        await SeatsAsync(minute: 820, capacity: 1);
        await ExecuteAsync($"""
            INSERT INTO slots (place_id, day, start_minute, service_id, minutes, capacity, starts_at)
            VALUES ({_place}, '{DiskDay:yyyy-MM-dd}', 800, 1, 10, 1, 4100000800), ({_place}, '{DiskDay:yyyy-MM-dd}', 820, 1, 10, 1, 4100000820)
            """);
        ReserveCommand Pair(int minute, string person) => Command(minute, person, key: person) with
        {
            Second = new SecondDoseRange(DiskDay.AddDays(-5), DiskDay.AddDays(5), minute),
            SecondCode = $"C-{person}-2",
        };
        var single = Instance(_first!);
        // Another transaction that takes the two disk slots in key order (800, then 820) holds the first. It, not the
        // batch, looks for a cycle first (10 ms against 1 s), so a deadlock fails this test instead of a batch's retry.
        await using var other = await _first!.OpenConnectionAsync();
        await using var otherTx = await other.BeginTransactionAsync();
        await ExecuteAsync(other, "SET LOCAL deadlock_timeout = '10ms'");
        await ExecuteAsync(other, $"SELECT 1 FROM slots WHERE place_id = {_place} AND start_minute = 800 FOR UPDATE");
        var otherPid = await ScalarAsync<int>(other, "SELECT pg_backend_pid()");

        // One batch in person order: the pair at 820 (pair-a) before the pair at 800 (pair-b).
        var booked = InOneBatchAsync(single, Pair(820, "pair-a"), Pair(800, "pair-b"));
        var until = DateTime.UtcNow.AddSeconds(20);
        while (await ScalarAsync<long>($"""
            SELECT count(*) FROM pg_stat_activity
            WHERE datname = current_database() AND query LIKE '%slots_apply%' AND {otherPid} = ANY (pg_blocking_pids(pid))
            """) == 0)
        {
            Assert.True(DateTime.UtcNow < until, "the pairs' batch never came to wait on the held slot");
            await Task.Delay(20);
        }
        await ExecuteAsync(other, $"SELECT 1 FROM slots WHERE place_id = {_place} AND start_minute = 820 FOR UPDATE");
        await otherTx.CommitAsync();
        var answers = await booked;

        Assert.All(answers, a => Assert.Equal(ReservationStatus.Reserved, a.Status));
        Assert.Equal(2L, await ScalarAsync<long>("SELECT count(*) FROM dose_pairs WHERE first_code IN ('C-pair-a', 'C-pair-b')"));
        Assert.Equal(0L, await ScalarAsync<long>("SELECT deadlocks FROM pg_stat_database WHERE datname = current_database()"));
    }

    private static async Task<T> ScalarAsync<T>(NpgsqlConnection connection, string sql)
    {
        await using var command = new NpgsqlCommand(sql, connection);
        return (T)(await command.ExecuteScalarAsync())!;
    }

    /// <summary>Every committed row a pair of the person 'paired' writes.</summary>
    private Task<long> PairRowsAsync() => ScalarAsync<long>("""
        SELECT (SELECT count(*) FROM hot_seats WHERE code IN ('C-pair-kill', 'C-PAIR-2'))
             + (SELECT count(*) FROM hot_reservations WHERE person_hash = 'paired')
             + (SELECT count(*) FROM reservations WHERE person_hash = 'paired')
             + (SELECT count(*) FROM dose_pairs WHERE first_code = 'C-pair-kill')
             + (SELECT count(*) FROM active_persons WHERE person_hash = 'paired')
             + (SELECT count(*) FROM idempotency WHERE key = 'pair-kill')
        """);
}
