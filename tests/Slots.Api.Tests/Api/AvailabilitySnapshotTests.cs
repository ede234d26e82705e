using Slots.Reservations;

namespace Slots.Api.Tests.Api;

public sealed class AvailabilitySnapshotTests
{
    private static readonly DateOnly Today = new(2026, 11, 23);
    private static readonly SlotKey Nine = new(7, Today, 9 * 60);
    private static readonly SlotKey Ten = new(7, Today, 10 * 60);

    private static readonly DateOnly Last = Today.AddDays(29);

    private static Task<IReadOnlyList<SlotAvailability>> Read(AvailabilitySnapshot snapshot, DateOnly from, DateOnly to) =>
        snapshot.GetAsync(7, from, to, Today, Last, CancellationToken.None);

    [Fact]
    public async Task A_place_read_once_is_asked_for_its_days_only_and_held_once_read_again_within_its_age()
    {
        var store = new CountingStore();
        var clock = new ManualClock();
        var snapshot = new AvailabilitySnapshot(store, clock);

        await Read(snapshot, Today, Today.AddDays(6));
        clock.Advance(AvailabilitySnapshot.MaxAge * 2);
        await Read(snapshot, Today, Today.AddDays(6));
        clock.Advance(AvailabilitySnapshot.MaxAge / 4);
        await Read(snapshot, Today, Today.AddDays(6));
        await Read(snapshot, Today.AddDays(1), Today.AddDays(2));

        // Readers spread over many places pay for their week; a place read twice within a second is held, as far as it is read.
        Assert.Equal([(Today, Today.AddDays(6)), (Today, Today.AddDays(6)), (Today, Today.AddDays(6))], store.Asked);
    }

    // A reload of the whole 30-day window per popular place and instance every second was a sixth of PostgreSQL's time on
    // the booking path, whose readers (the week shown, a full slot's alternatives) reach a week or two.
    [Fact]
    public async Task An_entry_holds_the_weeks_its_readers_reached_a_read_beyond_widens_it_and_it_narrows_when_they_no_longer_go_there()
    {
        var (store, clock, snapshot) = await HeldAsync();
        Assert.Equal([(Today, Today), (Today, Today.AddDays(6))], store.Asked);
        Assert.NotNull(snapshot.Stamp(7, Today, Last, Today.AddDays(6)));
        Assert.Null(snapshot.Stamp(7, Today, Last, Today.AddDays(7))); // not held: an answer for it cannot be reused

        await Read(snapshot, Today.AddDays(9), Today.AddDays(12)); // beyond the entry: loaded now, to the end of that week
        await Read(snapshot, Today.AddDays(10), Today.AddDays(11));
        Assert.Equal((Today, Today.AddDays(13)), store.Asked[^1]);
        Assert.Equal(3, store.Queries);

        clock.Advance(AvailabilitySnapshot.MaxAge);
        await Read(snapshot, Today, Today.AddDays(2)); // too old: read again as far as its readers went (day 12)
        Assert.Equal((Today, Today.AddDays(13)), store.Asked[^1]);

        clock.Advance(AvailabilitySnapshot.MaxAge);
        await Read(snapshot, Today, Today.AddDays(2)); // nobody went past day 2 since: the first week only
        Assert.Equal((Today, Today.AddDays(6)), store.Asked[^1]);

        await Read(snapshot, Today.AddDays(25), Last); // the window's end: never past it
        Assert.Equal((Today, Last), store.Asked[^1]);
        Assert.Equal(6, store.Queries);
    }

    [Fact]
    public async Task A_booking_takes_a_seat_of_its_own_service_when_two_services_start_at_the_same_minute()
    {
        var pcrAtNine = Nine with { ServiceId = 2 };
        var store = new CountingStore
        {
            Rows = [new SlotAvailability(Nine, 15, 3, 3, 0), new SlotAvailability(pcrAtNine, 15, 2, 2, 0), new SlotAvailability(Ten, 15, 1, 1, 0)],
        };
        var snapshot = new AvailabilitySnapshot(store, new ManualClock());
        await Read(snapshot, Today, Today);
        await Read(snapshot, Today, Today); // held now

        snapshot.Taken(pcrAtNine);
        var slots = await Read(snapshot, Today, Today);

        Assert.Equal([3, 1, 1], slots.Select(s => s.Free));
    }

    [Fact]
    public async Task A_hundred_concurrent_reads_of_one_place_share_one_query()
    {
        var store = new CountingStore { Delay = TimeSpan.FromMilliseconds(50) };
        var snapshot = new AvailabilitySnapshot(store, new ManualClock());

        var reads = await Task.WhenAll(Enumerable.Range(0, 100).Select(_ => Read(snapshot, Today, Today)));

        // The first asks for its own day; the 99 that came within the same second share one query for the first week.
        Assert.Equal([(Today, Today), (Today, Today.AddDays(6))], store.Asked);
        Assert.All(reads, r => Assert.Equal([3, 1], r.Select(s => s.Free)));
    }

    [Fact]
    public async Task The_stamp_stays_while_nothing_changes_and_moves_with_every_real_change_or_age()
    {
        var store = new CountingStore();
        var clock = new ManualClock();
        var snapshot = new AvailabilitySnapshot(store, clock);
        Assert.Null(snapshot.Stamp(7, Today, Last, Today)); // nothing held yet: nothing to reuse
        await Read(snapshot, Today, Today);
        await Read(snapshot, Today, Today);
        var first = snapshot.Stamp(7, Today, Last, Today);
        Assert.NotNull(first);
        Assert.Equal(first, snapshot.Stamp(7, Today, Last, Today));

        snapshot.Full(Ten);                       // 1 free -> 0: a change
        var afterFull = snapshot.Stamp(7, Today, Last, Today);
        Assert.NotEqual(first, afterFull);
        snapshot.Full(Ten);                       // already 0: the answers it built are still true
        Assert.Equal(afterFull, snapshot.Stamp(7, Today, Last, Today));
        snapshot.Taken(Nine);
        Assert.NotEqual(afterFull, snapshot.Stamp(7, Today, Last, Today));

        clock.Advance(AvailabilitySnapshot.MaxAge);
        Assert.Null(snapshot.Stamp(7, Today, Last, Today)); // too old: the next read asks the database
        Assert.Null(snapshot.Stamp(7, Today.AddDays(1), Last.AddDays(1), Today.AddDays(1))); // another window (a new day)
    }

    // Each load made a new entry, so a crowd's kept answer was built again every three quarters of a second even when
    // nothing had changed: in the benchmark's crowd on one place's week, 66 of 30,000 answers were built, 32 at a time.
    [Fact]
    public async Task A_reload_that_reads_the_same_seats_keeps_the_stamp_and_one_that_reads_others_moves_it()
    {
        var store = new CountingStore();
        var clock = new ManualClock();
        var snapshot = new AvailabilitySnapshot(store, clock);
        await Read(snapshot, Today, Today);
        await Read(snapshot, Today, Today);
        var held = snapshot.Stamp(7, Today, Last, Today);
        Assert.NotNull(held);

        clock.Advance(AvailabilitySnapshot.MaxAge);
        var queries = store.Queries;
        await Read(snapshot, Today, Today); // too old: read again, and the database holds the same seats
        Assert.Equal(queries + 1, store.Queries);
        Assert.Equal(held, snapshot.Stamp(7, Today, Last, Today));

        store.Rows = [new SlotAvailability(Nine, 15, 3, 2, 0), new SlotAvailability(Ten, 15, 1, 1, 0)]; // another instance booked at nine
        clock.Advance(AvailabilitySnapshot.MaxAge);
        Assert.Equal([2, 1], (await Read(snapshot, Today, Today)).Select(s => s.Free));
        var moved = snapshot.Stamp(7, Today, Last, Today);
        Assert.NotNull(moved);
        Assert.NotEqual(held, moved);

        store.Rows = [new SlotAvailability(Nine, 15, 3, 2, 0), new SlotAvailability(Ten, 20, 1, 1, 0)]; // ten o'clock lengthened
        clock.Advance(AvailabilitySnapshot.MaxAge);
        Assert.Equal([15, 20], (await Read(snapshot, Today, Today)).Select(s => s.Minutes));
        Assert.NotEqual(moved, snapshot.Stamp(7, Today, Last, Today));
        snapshot.Taken(Nine); // the entry read last is the one own answers change
        Assert.Equal([1, 1], (await Read(snapshot, Today, Today)).Select(s => s.Free));
    }

    [Fact]
    public async Task Own_answers_apply_at_once_and_a_cancellation_makes_the_next_read_ask_again()
    {
        var store = new CountingStore();
        var snapshot = new AvailabilitySnapshot(store, new ManualClock());
        await Read(snapshot, Today, Today);
        await Read(snapshot, Today, Today);

        snapshot.Taken(Nine);
        snapshot.Full(Ten);
        var afterOwn = await Read(snapshot, Today, Today);
        snapshot.Forget();
        var afterCancel = await Read(snapshot, Today, Today);

        Assert.Equal([2, 0], afterOwn.Select(s => s.Free));
        Assert.Equal([3, 1], afterCancel.Select(s => s.Free));
        Assert.Equal(3, store.Queries);
    }

    [Fact]
    public async Task An_entry_older_than_its_age_is_read_again_and_days_outside_the_hot_window_are_never_cached()
    {
        var (store, clock, snapshot) = await HeldAsync();
        Assert.Equal(2, store.Queries);

        clock.Advance(AvailabilitySnapshot.MaxAge / 2);
        await Read(snapshot, Today, Today);
        Assert.Equal(2, store.Queries);

        clock.Advance(AvailabilitySnapshot.MaxAge);
        await Read(snapshot, Today, Today);
        Assert.Equal(3, store.Queries);

        await Read(snapshot, Today.AddDays(-1), Today);
        await Read(snapshot, Today.AddDays(-1), Today);
        Assert.Equal(5, store.Queries);
    }

    // In a stampede every reader of a popular place waited for its reload once a second, behind the
    // bookings: built answers took 300 ms at p50 at the server.
    [Fact]
    public async Task A_read_in_the_last_quarter_of_the_age_is_answered_at_once_and_loads_the_entry_again_behind_it()
    {
        var (store, clock, snapshot) = await HeldAsync();
        Assert.Equal(2, store.Queries);

        clock.Advance(AvailabilitySnapshot.MaxAge * 0.8);
        store.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously); // the database is slow now
        store.Rows = [new SlotAvailability(Nine, 15, 3, 2, 0), new SlotAvailability(Ten, 15, 1, 0, 0)];
        var reads = Enumerable.Range(0, 20).Select(_ => Read(snapshot, Today, Today)).ToList();

        Assert.All(reads, read => Assert.True(read.IsCompletedSuccessfully)); // none waits for the database
        Assert.All(reads, read => Assert.Equal([3, 1], read.Result.Select(s => s.Free)));
        Assert.Equal(3, store.Queries); // one load behind all twenty
        var before = snapshot.Stamp(7, Today, Last, Today);
        store.Gate.SetResult();
        await WaitUntilAsync(() => snapshot.Stamp(7, Today, Last, Today) != before); // the new entry is in

        clock.Advance(AvailabilitySnapshot.MaxAge * 0.5); // past the first load's age, within the second's
        Assert.Equal([2, 0], (await Read(snapshot, Today, Today)).Select(s => s.Free));
        Assert.Equal(3, store.Queries);
    }

    // In the stampede the load started behind a read in the last quarter waits among the bookings for longer than that
    // quarter: every reader after the age waited for it (built answers p99 250 ms at the server on one API).
    [Fact]
    public async Task Past_the_age_an_entry_whose_load_is_under_way_answers_at_once_until_it_is_stale_then_readers_wait()
    {
        var (store, clock, snapshot) = await HeldAsync();
        clock.Advance(AvailabilitySnapshot.MaxAge * 0.8);
        store.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously); // the database is slow now
        store.Rows = [new SlotAvailability(Nine, 15, 3, 2, 0), new SlotAvailability(Ten, 15, 1, 0, 0)];
        Assert.True(Read(snapshot, Today, Today).IsCompletedSuccessfully); // starts the load behind it

        clock.Advance(AvailabilitySnapshot.MaxAge * 0.4); // past the age, the load still under way
        var reads = Enumerable.Range(0, 20).Select(_ => Read(snapshot, Today, Today)).ToList();

        Assert.All(reads, read => Assert.True(read.IsCompletedSuccessfully));
        Assert.All(reads, read => Assert.Equal([3, 1], read.Result.Select(s => s.Free)));
        Assert.NotNull(snapshot.Stamp(7, Today, Last, Today)); // kept answers stay too
        Assert.Equal(3, store.Queries);

        clock.Advance(AvailabilitySnapshot.MaxStale); // too stale to answer from: the reader waits for the load
        var late = Read(snapshot, Today, Today);
        Assert.False(late.IsCompleted);
        Assert.Null(snapshot.Stamp(7, Today, Last, Today));
        store.Gate.SetResult();
        Assert.Equal([2, 0], (await late).Select(s => s.Free));
        Assert.Equal(3, store.Queries); // the one load behind them all
    }

    // A place nobody read in the last second made its reader wait for a load among the bookings: of the built answers over
    // 20 ms in a stampede on one API, 1,205 were first asks and 511 old entries with no load under way.
    [Fact]
    public async Task While_loads_are_slow_an_old_entry_answers_at_once_and_is_read_again_behind_and_quick_loads_make_readers_wait_again()
    {
        var (store, clock, snapshot) = await SlowAsync();

        store.Takes = TimeSpan.Zero;
        store.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        store.Rows = [new SlotAvailability(Nine, 15, 3, 2, 0), new SlotAvailability(Ten, 15, 1, 0, 0)];
        clock.Advance(AvailabilitySnapshot.RarelyReadAge);
        var stale = Read(snapshot, Today, Today);

        Assert.True(stale.IsCompletedSuccessfully); // answered from the entry, 20 s old
        Assert.Equal([3, 1], (await stale).Select(s => s.Free));
        Assert.Equal(4, store.Queries); // and read again behind it
        var before = snapshot.Stamp(7, Today, Last, Today);
        Assert.NotNull(before);
        store.Gate.SetResult();
        await WaitUntilAsync(() => snapshot.Stamp(7, Today, Last, Today) != before);
        Assert.Equal([2, 0], (await Read(snapshot, Today, Today)).Select(s => s.Free));

        // Quick loads again (the last ones took no time): past the age a reader waits for the fresh read, as on a quiet day.
        Assert.False(snapshot.LoadsAreSlow);
        store.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        clock.Advance(AvailabilitySnapshot.MaxAge * 2);
        var waiting = Read(snapshot, Today, Today);
        Assert.False(waiting.IsCompleted);
        store.Gate.SetResult();
        await waiting;
    }

    // In a stampede the places outside the popular few were each read once in ten seconds or so per instance, and each of
    // those reads loaded its place again behind it: 94 % of the loads, 2.7 times the bookings' time in PostgreSQL.
    [Fact]
    public async Task While_loads_are_slow_a_rarely_read_entry_is_read_again_behind_its_reader_only_from_its_age_and_one_read_often_every_second()
    {
        var (store, clock, snapshot) = await SlowAsync();
        Assert.Equal(3, store.Queries);

        // Read once in a while: answered from the entry, and nothing loaded behind it until the entry is 20 s old.
        clock.Advance(AvailabilitySnapshot.MaxAge * 5);
        Assert.True(Read(snapshot, Today, Today).IsCompletedSuccessfully);
        clock.Advance(AvailabilitySnapshot.MaxAge * 10);
        Assert.True(Read(snapshot, Today, Today).IsCompletedSuccessfully);
        Assert.Equal(3, store.Queries);

        var before = snapshot.Stamp(7, Today, Last, Today);
        store.Rows = [new SlotAvailability(Nine, 15, 3, 2, 0), new SlotAvailability(Ten, 15, 1, 0, 0)];
        store.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        clock.Advance(AvailabilitySnapshot.RarelyReadAge - (AvailabilitySnapshot.MaxAge * 15));
        var old = Read(snapshot, Today, Today);
        Assert.True(old.IsCompletedSuccessfully); // 20 s old: answered from the entry, and read again behind it
        Assert.Equal([3, 1], (await old).Select(s => s.Free));
        Assert.Equal(4, store.Queries);
        store.Gate.SetResult();
        await WaitUntilAsync(() => snapshot.Stamp(7, Today, Last, Today) != before);
        store.Gate = null;

        // Read often (each read within a second of the one before): read again behind a reader from RefreshAge, as before.
        clock.Advance(AvailabilitySnapshot.MaxAge / 2);
        Assert.Equal([2, 0], (await Read(snapshot, Today, Today)).Select(s => s.Free));
        Assert.Equal(4, store.Queries);
        clock.Advance(AvailabilitySnapshot.MaxAge / 2);
        Assert.True(Read(snapshot, Today, Today).IsCompletedSuccessfully);
        Assert.Equal(5, store.Queries);
    }

    // In a stampede the loads were quick (6.8 ms each), so old entries did not answer: every reader of a place not read in
    // the last second waited for a load of its own, about a hundred a second per instance, the database's largest statement.
    [Fact]
    public async Task While_loads_are_many_a_rarely_read_entry_answers_at_once_and_with_few_its_reader_waits_for_a_fresh_read()
    {
        var clock = new ManualClock();
        var store = new CountingStore();
        var snapshot = new AvailabilitySnapshot(store, clock);
        await Read(snapshot, Today, Today);
        await Read(snapshot, Today, Today);
        clock.Advance(AvailabilitySnapshot.MaxAge * 2);
        store.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var quiet = Read(snapshot, Today, Today);
        Assert.False(quiet.IsCompleted); // a quiet instance: past the age the reader waits for a fresh read
        store.Gate.SetResult();
        await quiet;
        store.Gate = null;
        Assert.False(snapshot.LoadsAreMany);

        // Readers spread over many places: each read twice within the second, so each is loaded.
        for (var place = 100; place < 100 + AvailabilitySnapshot.ManyLoads; place++)
        {
            await snapshot.GetAsync(place, Today, Today, Today, Last, CancellationToken.None);
            await snapshot.GetAsync(place, Today, Today, Today, Last, CancellationToken.None);
        }
        Assert.True(snapshot.LoadsAreMany);
        Assert.Equal(3 + (2 * AvailabilitySnapshot.ManyLoads), store.Queries);

        clock.Advance(AvailabilitySnapshot.MaxAge * 1.5);
        Assert.True(Read(snapshot, Today, Today).IsCompletedSuccessfully); // 1.5 s old, read rarely: answered, nothing loaded
        Assert.Equal(3 + (2 * AvailabilitySnapshot.ManyLoads), store.Queries);

        clock.Advance(AvailabilitySnapshot.MaxAge * 2); // no load since the second before: few again
        Assert.False(snapshot.LoadsAreMany);
        store.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var fresh = Read(snapshot, Today, Today);
        Assert.False(fresh.IsCompleted);
        store.Gate.SetResult();
        await fresh;
        Assert.Equal(4 + (2 * AvailabilitySnapshot.ManyLoads), store.Queries);
    }

    [Fact]
    public async Task A_fresh_instance_holds_each_places_first_week_from_one_read_and_answers_it_without_a_query()
    {
        var store = new CountingStore();
        var clock = new ManualClock();
        var snapshot = new AvailabilitySnapshot(store, clock);
        var reads = 0;
        async IAsyncEnumerable<SlotAvailability> Every()
        {
            reads++;
            foreach (var place in new[] { 7, 8 })
            {
                for (var day = 0; day < 10; day++)
                {
                    yield return new SlotAvailability(new SlotKey(place, Today.AddDays(day), 9 * 60), 15, 3, 3 - day % 3, 0);
                }
            }
            await Task.Yield();
        }
        var days = new Dictionary<int, (DateOnly, DateOnly, DateOnly)> { [7] = (Today, Last, Today.AddDays(6)), [8] = (Today, Last, Today.AddDays(6)) };

        await snapshot.HoldAsync(Every(), days);
        await snapshot.HoldAsync(Every(), days); // once per instance

        var week = await Read(snapshot, Today, Today.AddDays(6));
        var other = await snapshot.GetAsync(8, Today.AddDays(2), Today.AddDays(3), Today, Last, CancellationToken.None);
        Assert.Equal(1, reads);
        Assert.Equal(0, store.Queries);
        Assert.Equal(7, week.Count);
        Assert.Equal([1, 3], other.Select(s => s.Free)); // days 2 and 3 as read
        Assert.NotNull(snapshot.Stamp(7, Today, Last, Today.AddDays(6)));

        await Read(snapshot, Today.AddDays(7), Today.AddDays(8)); // beyond the week held: loaded as any other read beyond
        Assert.Equal(1, store.Queries);
    }

    // In a stampede the database may answer after the entry's age has passed: its readers take the answer, they do not ask again.
    [Fact]
    public async Task A_load_that_outlasts_the_entry_s_age_still_answers_its_readers_with_one_query()
    {
        var clock = new ManualClock();
        var store = new CountingStore { Clock = clock };
        var snapshot = new AvailabilitySnapshot(store, clock);
        await Read(snapshot, Today, Today);

        store.Takes = AvailabilitySnapshot.MaxAge * 1.5; // the database slows down
        var slots = await Read(snapshot, Today, Today);

        Assert.Equal([3, 1], slots.Select(s => s.Free));
        Assert.Equal(2, store.Queries); // the first read's own day, then one load
    }

    [Fact]
    public async Task A_failed_query_reaches_its_readers_and_the_next_read_tries_again()
    {
        var (store, clock, snapshot) = await HeldAsync();

        clock.Advance(AvailabilitySnapshot.MaxAge);
        store.Fail = true;
        await Assert.ThrowsAsync<TimeoutException>(() => Read(snapshot, Today, Today));
        store.Fail = false;
        var read = await Read(snapshot, Today, Today);

        Assert.Equal(2, read.Count);
        Assert.Equal(4, store.Queries);
    }

    [Fact]
    public async Task A_read_of_days_inside_the_entry_answers_exactly_their_slots_with_the_seats_taken_since()
    {
        // Two slots a day for a week, none on the sixth day.
        var store = new CountingStore
        {
            Rows = [.. Enumerable.Range(0, 7).Where(d => d != 5).SelectMany(d => new[]
            {
                new SlotAvailability(Nine with { Day = Today.AddDays(d) }, 15, 3, 3, 0),
                new SlotAvailability(Ten with { Day = Today.AddDays(d) }, 15, 1, 1, 0),
            })],
        };
        var snapshot = new AvailabilitySnapshot(store, new ManualClock());
        await Read(snapshot, Today, Today.AddDays(6));
        await Read(snapshot, Today, Today.AddDays(6));   // the second read within its age holds the week
        snapshot.Taken(Ten with { Day = Today.AddDays(3) });
        var queries = store.Queries;

        var middle = await Read(snapshot, Today.AddDays(2), Today.AddDays(3));
        var none = await Read(snapshot, Today.AddDays(5), Today.AddDays(5));
        var last = await Read(snapshot, Today.AddDays(6), Today.AddDays(6));

        Assert.Equal(queries, store.Queries);
        Assert.Equal([(2, 9 * 60, 3), (2, 10 * 60, 1), (3, 9 * 60, 3), (3, 10 * 60, 0)],
            middle.Select(s => (s.Slot.Day.DayNumber - Today.DayNumber, s.Slot.StartMinute, s.Free)));
        Assert.Empty(none);
        Assert.Equal([Nine with { Day = Today.AddDays(6) }, Ten with { Day = Today.AddDays(6) }], last.Select(s => s.Slot));
    }

    /// <summary>A snapshot that holds place 7 whole (read twice within its age), with its store and clock.</summary>
    private static async Task<(CountingStore Store, ManualClock Clock, AvailabilitySnapshot Snapshot)> HeldAsync()
    {
        var store = new CountingStore();
        var clock = new ManualClock();
        var snapshot = new AvailabilitySnapshot(store, clock);
        await Read(snapshot, Today, Today);
        await Read(snapshot, Today, Today);
        return (store, clock, snapshot);
    }

    /// <summary>A place held after three reads whose loads took 60 ms each: the loads are slow (three queries so far).</summary>
    private static async Task<(CountingStore Store, ManualClock Clock, AvailabilitySnapshot Snapshot)> SlowAsync()
    {
        var clock = new ManualClock();
        var store = new CountingStore { Clock = clock };
        var snapshot = new AvailabilitySnapshot(store, clock);
        await Read(snapshot, Today, Today);
        store.Takes = AvailabilitySnapshot.SlowLoad * 3; // the database is busy: each load takes 60 ms
        await Read(snapshot, Today, Today);
        clock.Advance(AvailabilitySnapshot.MaxAge);
        await Read(snapshot, Today, Today);
        Assert.True(snapshot.LoadsAreSlow);
        return (store, clock, snapshot);
    }

    private static async Task WaitUntilAsync(Func<bool> done)
    {
        var deadline = DateTime.UtcNow.AddSeconds(10);
        while (!done() && DateTime.UtcNow < deadline)
        {
            await Task.Delay(10);
        }
        Assert.True(done());
    }

    private sealed class ManualClock : TimeProvider
    {
        private long _ticks;

        public override long TimestampFrequency => TimeSpan.TicksPerSecond;
        public override long GetTimestamp() => Interlocked.Read(ref _ticks);
        public void Advance(TimeSpan by) => Interlocked.Add(ref _ticks, by.Ticks);
    }

    private sealed class CountingStore : IReservationStore
    {
        private readonly List<(DateOnly, DateOnly)> _asked = [];

        public int Queries { get { lock (_asked) { return _asked.Count; } } }
        public List<(DateOnly, DateOnly)> Asked { get { lock (_asked) { return [.. _asked]; } } }
        public TimeSpan Delay { get; init; }

        /// <summary>With <see cref="Clock"/>: how far each query moves that clock on (a query that takes this long).</summary>
        public TimeSpan Takes { get; set; }
        public ManualClock? Clock { get; init; }
        public bool Fail { get; set; }
        public IReadOnlyList<SlotAvailability>? Rows { get; set; }

        /// <summary>While set and not yet completed, a query waits for it (a database that does not answer yet).</summary>
        public TaskCompletionSource? Gate { get; set; }

        public async Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct)
        {
            lock (_asked)
            {
                _asked.Add((from, to));
            }
            await Task.Delay(Delay, ct);
            Clock?.Advance(Takes);
            if (Gate is { } gate)
            {
                await gate.Task.WaitAsync(ct);
            }
            if (Fail)
            {
                throw new TimeoutException("the database did not answer");
            }
            return Rows ?? [new SlotAvailability(Nine, 15, 3, 3, 0), new SlotAvailability(Ten, 15, 1, 1, 0)];
        }

        public ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct) => throw new NotSupportedException();
        public ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) => throw new NotSupportedException();
        public ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) => throw new NotSupportedException();
        public Task<ReservationDetails?> FindAsync(string code, CancellationToken ct) => throw new NotSupportedException();
        public Task<bool> PingAsync(CancellationToken ct) => Task.FromResult(true);
    }
}
