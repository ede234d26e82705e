using Slots.Capacity;

namespace Slots.Api.Tests.Capacity;

/// <summary>
/// The adaptive limit as a policy: latencies come from a clock the test moves, so nothing here waits
/// or depends on the machine's speed.
/// </summary>
public sealed class ConcurrencyLimitTests
{
    private static readonly TimeSpan Target = TimeSpan.FromMilliseconds(50);
    private static readonly TimeSpan Window = TimeSpan.FromMilliseconds(100);

    [Fact]
    public void The_limit_rises_while_a_full_limit_is_answered_under_the_target()
    {
        var clock = new ManualClock();
        var limit = new ConcurrencyLimit(Options(initial: 10), clock);
        var seen = new List<int> { limit.Limit };

        for (var round = 0; round < 60; round++)
        {
            Round(limit, clock, limit.Limit, TimeSpan.FromMilliseconds(10));
            seen.Add(limit.Limit);
        }

        Assert.True(limit.Limit > 10, $"the limit stayed at {limit.Limit}");
        Assert.Equal(seen.Order(), seen);   // never down while every answer was fast
    }

    [Fact]
    public void The_limit_falls_when_latency_climbs_past_the_target()
    {
        var clock = new ManualClock();
        var limit = new ConcurrencyLimit(Options(initial: 100), clock);
        var seen = new List<int> { limit.Limit };

        for (var round = 0; round < 10; round++)
        {
            Round(limit, clock, 20, TimeSpan.FromMilliseconds(80));
            seen.Add(limit.Limit);
        }

        Assert.True(limit.Limit < 70, $"the limit only fell to {limit.Limit}");
        Assert.Equal(seen.OrderDescending(), seen);
    }

    [Fact]
    public void Slow_answers_for_ever_bring_the_limit_to_its_floor_never_to_zero_and_the_floor_is_still_admitted()
    {
        var clock = new ManualClock();
        var limit = new ConcurrencyLimit(Options(initial: 3, min: 1), clock);

        for (var round = 0; round < 100; round++)
        {
            Round(limit, clock, limit.Limit, TimeSpan.FromSeconds(1));
            Assert.True(limit.Limit >= 1);
        }

        Assert.Equal(1, limit.Limit);
        Assert.True(limit.TryAcquire(out _));
        Assert.False(limit.TryAcquire(out _));
    }

    [Fact]
    public void A_limit_that_is_not_used_does_not_grow()
    {
        var clock = new ManualClock();
        var limit = new ConcurrencyLimit(Options(initial: 40), clock);

        for (var round = 0; round < 50; round++)
        {
            Round(limit, clock, 2, TimeSpan.FromMilliseconds(10));
        }

        Assert.Equal(40, limit.Limit);
    }

    [Fact]
    public void One_slow_answer_in_a_window_of_hundreds_is_within_the_p99_and_holds_the_limit()
    {
        var clock = new ManualClock();
        var limit = new ConcurrencyLimit(Options(initial: 100), clock);
        Round(limit, clock, 100, TimeSpan.FromMilliseconds(1));
        Round(limit, clock, 100, TimeSpan.FromMilliseconds(1));
        Assert.True(limit.TryAcquire(out var slow));
        clock.Advance(TimeSpan.FromMilliseconds(200));   // past the target, and closes the window

        limit.Release(slow);

        Assert.Equal(100, limit.Limit);
    }

    [Fact]
    public void A_burst_at_once_admits_exactly_the_limit()
    {
        var limit = new ConcurrencyLimit(Options(initial: 16), new ManualClock());
        const int racers = 64;
        using var start = new Barrier(racers);
        var admitted = 0;

        var threads = Enumerable.Range(0, racers).Select(racer => new Thread(() =>
        {
            start.SignalAndWait();
            if (limit.TryAcquire(out _))
            {
                Interlocked.Increment(ref admitted);
            }
        })).ToList();
        threads.ForEach(t => t.Start());
        threads.ForEach(t => t.Join());

        Assert.Equal(16, admitted);
        Assert.Equal(16, limit.InFlight);
    }

    [Fact]
    public void Racers_that_come_and_go_never_hold_more_than_the_limit_at_once()
    {
        // The clock stands still: no window closes, so the limit stays 8 and any excess is the admission's fault.
        var limit = new ConcurrencyLimit(Options(initial: 8), new ManualClock());
        var inside = 0;
        var most = 0;
        var admissions = 0;

        Parallel.For(0, 8 * Environment.ProcessorCount + 8, new ParallelOptions { MaxDegreeOfParallelism = 32 }, _ =>
        {
            for (var i = 0; i < 2_000; i++)
            {
                if (!limit.TryAcquire(out var startedAt))
                {
                    continue;
                }
                var now = Interlocked.Increment(ref inside);
                InterlockedMax(ref most, now);
                Interlocked.Increment(ref admissions);
                Thread.SpinWait(50);
                Interlocked.Decrement(ref inside);
                limit.Release(startedAt);
            }
        });

        Assert.InRange(most, 1, 8);
        Assert.True(admissions > 0);
        Assert.Equal(0, limit.InFlight);
        Assert.Equal(8, limit.Limit);
    }

    [Theory]
    [InlineData(0, 1, 10, "MinLimit")]
    [InlineData(5, 4, 10, "MaxLimit")]
    [InlineData(2, 20, 30, "InitialLimit")]
    public void Options_that_cannot_work_are_refused_naming_the_key(int min, int max, int initial, string key)
    {
        var options = new ConcurrencyLimitOptions { MinLimit = min, MaxLimit = max, InitialLimit = initial };

        Assert.Contains($"{ConcurrencyLimitOptions.Section}:{key}", options.Problem());
        Assert.Throws<ArgumentException>(() => new ConcurrencyLimit(options, new ManualClock()));
        Assert.Null(new ConcurrencyLimitOptions().Problem());
    }

    private static ConcurrencyLimitOptions Options(int initial, int min = 2, int max = 200) =>
        new() { TargetLatency = Target, Window = Window, InitialLimit = initial, MinLimit = min, MaxLimit = max };

    /// <summary>Admits up to <paramref name="count"/> requests at once, lets <paramref name="latency"/> pass, answers them all.</summary>
    private static void Round(ConcurrencyLimit limit, ManualClock clock, int count, TimeSpan latency)
    {
        var started = new List<long>();
        for (var i = 0; i < count && limit.TryAcquire(out var at); i++)
        {
            started.Add(at);
        }
        clock.Advance(latency);
        started.ForEach(limit.Release);
    }

    private static void InterlockedMax(ref int target, int value)
    {
        var seen = Volatile.Read(ref target);
        while (value > seen && Interlocked.CompareExchange(ref target, value, seen) is var now && now != seen)
        {
            seen = now;
        }
    }

    private sealed class ManualClock : TimeProvider
    {
        private long _ticks;

        public override long TimestampFrequency => TimeSpan.TicksPerSecond;
        public override long GetTimestamp() => Interlocked.Read(ref _ticks);
        public void Advance(TimeSpan by) => Interlocked.Add(ref _ticks, by.Ticks);
    }
}
