using Slots.Reservations;

namespace Slots.Api.Tests.Api;

public sealed class AvailabilitySnapshotTests
{
    private static readonly DateOnly Today = new(2026, 11, 23);
    private static readonly SlotKey Nine = new(7, Today, 9 * 60);
    private static readonly SlotKey Ten = new(7, Today, 10 * 60);

    [Fact]
    public async Task A_hundred_concurrent_reads_of_one_place_cost_one_query()
    {
        var store = new CountingStore { Delay = TimeSpan.FromMilliseconds(50) };
        var snapshot = new AvailabilitySnapshot(store, new ManualClock());

        var reads = await Task.WhenAll(Enumerable.Range(0, 100).Select(_ => snapshot.GetAsync(7, Today, Today, Today, Today.AddDays(29), CancellationToken.None)));

        Assert.Equal(1, store.Queries);
        Assert.All(reads, r => Assert.Equal([3, 1], r.Select(s => s.Free)));
    }

    [Fact]
    public async Task Own_answers_apply_at_once_and_a_cancellation_makes_the_next_read_ask_again()
    {
        var store = new CountingStore();
        var snapshot = new AvailabilitySnapshot(store, new ManualClock());
        await snapshot.GetAsync(7, Today, Today, Today, Today.AddDays(29), CancellationToken.None);

        snapshot.Taken(Nine);
        snapshot.Full(Ten);
        var afterOwn = await snapshot.GetAsync(7, Today, Today, Today, Today.AddDays(29), CancellationToken.None);
        snapshot.Forget();
        var afterCancel = await snapshot.GetAsync(7, Today, Today, Today, Today.AddDays(29), CancellationToken.None);

        Assert.Equal([2, 0], afterOwn.Select(s => s.Free));
        Assert.Equal([3, 1], afterCancel.Select(s => s.Free));
        Assert.Equal(2, store.Queries);
    }

    [Fact]
    public async Task An_entry_older_than_its_age_is_read_again_and_days_outside_the_hot_window_are_never_cached()
    {
        var store = new CountingStore();
        var clock = new ManualClock();
        var snapshot = new AvailabilitySnapshot(store, clock);

        await snapshot.GetAsync(7, Today, Today, Today, Today.AddDays(29), CancellationToken.None);
        clock.Advance(AvailabilitySnapshot.MaxAge / 2);
        await snapshot.GetAsync(7, Today, Today, Today, Today.AddDays(29), CancellationToken.None);
        Assert.Equal(1, store.Queries);

        clock.Advance(AvailabilitySnapshot.MaxAge);
        await snapshot.GetAsync(7, Today, Today, Today, Today.AddDays(29), CancellationToken.None);
        Assert.Equal(2, store.Queries);

        await snapshot.GetAsync(7, Today.AddDays(-1), Today, Today, Today.AddDays(29), CancellationToken.None);
        await snapshot.GetAsync(7, Today.AddDays(-1), Today, Today, Today.AddDays(29), CancellationToken.None);
        Assert.Equal(4, store.Queries);
    }

    [Fact]
    public async Task A_failed_query_reaches_its_readers_and_the_next_read_tries_again()
    {
        var store = new CountingStore { Fail = true };
        var snapshot = new AvailabilitySnapshot(store, new ManualClock());

        await Assert.ThrowsAsync<TimeoutException>(() => snapshot.GetAsync(7, Today, Today, Today, Today.AddDays(29), CancellationToken.None));
        store.Fail = false;
        var read = await snapshot.GetAsync(7, Today, Today, Today, Today.AddDays(29), CancellationToken.None);

        Assert.Equal(2, read.Count);
        Assert.Equal(2, store.Queries);
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
        private int _queries;

        public int Queries => Volatile.Read(ref _queries);
        public TimeSpan Delay { get; init; }
        public bool Fail { get; set; }

        public async Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct)
        {
            Interlocked.Increment(ref _queries);
            await Task.Delay(Delay, ct);
            if (Fail)
            {
                throw new TimeoutException("the database did not answer");
            }
            return [new SlotAvailability(Nine, 15, 3, 3, 0), new SlotAvailability(Ten, 15, 1, 1, 0)];
        }

        public ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct) => throw new NotSupportedException();
        public ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) => throw new NotSupportedException();
        public ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) => throw new NotSupportedException();
        public Task<ReservationDetails?> FindAsync(string code, CancellationToken ct) => throw new NotSupportedException();
        public Task<bool> PingAsync(CancellationToken ct) => Task.FromResult(true);
    }
}
