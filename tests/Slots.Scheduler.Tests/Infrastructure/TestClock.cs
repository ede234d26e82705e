namespace Slots.Scheduler.Tests.Infrastructure;

/// <summary>A clock the test sets: window moves and day ends without waiting.</summary>
public sealed class TestClock(DateTimeOffset start) : TimeProvider
{
    private long _ticks = start.UtcTicks;

    public override DateTimeOffset GetUtcNow() => new(Interlocked.Read(ref _ticks), TimeSpan.Zero);

    public void Set(DateTimeOffset now) => Interlocked.Exchange(ref _ticks, now.UtcTicks);

    public void Advance(TimeSpan by) => Interlocked.Add(ref _ticks, by.Ticks);
}
