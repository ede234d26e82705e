namespace Slots.Catalogue;

/// <summary>
/// An in-memory copy of tables that change rarely (places, services), shared by every request of an
/// instance:
/// <list type="bullet">
/// <item>loaded on first use and after <see cref="Invalidate"/> (a write on this instance), and a
/// reader waits for that load: it must see the write;</item>
/// <item>once older than its age, answered as it is while one reload runs behind it, so no request
/// queues behind a database round trip that only the copy's age asked for (in a stampede that
/// round trip waits for a connection among the bookings, and every read on the hot path with it);</item>
/// <item>reloaded on demand for a miss (<see cref="ReloadAsync"/>), at most once per
/// <c>recent</c>, and one load at a time.</item>
/// </list>
/// </summary>
internal sealed class ReloadedCopy<T>(Func<CancellationToken, Task<T>> load, TimeProvider clock, TimeSpan maxAge) where T : class
{
    private readonly SemaphoreSlim _loading = new(1, 1);
    private volatile Loaded? _current; // null: never loaded
    private int _behind;
    private int _writes; // invalidations so far: a load that saw fewer read the tables before a write

    /// <summary>One load of the copy: when, and whether a write on this instance has made it unfit to answer.</summary>
    public sealed record Loaded(T Value, DateTimeOffset At, bool Invalidated = false);

    /// <summary>The copy to answer from; loaded first when there is none fit.</summary>
    public ValueTask<Loaded> GetAsync(CancellationToken ct)
    {
        var current = _current;
        if (current is null || current.Invalidated)
        {
            // Every reader waiting here takes the one load that finishes first.
            return new ValueTask<Loaded>(ReloadAsync(current, maxAge, ct));
        }
        if (clock.GetUtcNow() - current.At > maxAge)
        {
            ReloadBehind(current);
        }
        return ValueTask.FromResult(current);
    }

    /// <summary>Forget the copy: the next read loads it again and waits for that, and a load already running is kept unfit.</summary>
    public void Invalidate()
    {
        Interlocked.Increment(ref _writes);
        if (_current is { } current)
        {
            _current = current with { Invalidated = true };
        }
    }

    /// <summary>
    /// Loads the copy again, unless another load finished within <paramref name="recent"/> after
    /// <paramref name="seen"/> was read (a concurrent miss's): that one is answered.
    /// </summary>
    public async Task<Loaded> ReloadAsync(Loaded? seen, TimeSpan recent, CancellationToken ct)
    {
        await _loading.WaitAsync(ct);
        try
        {
            var current = _current;
            if (current is { Invalidated: false } && !ReferenceEquals(seen, current) && clock.GetUtcNow() - current.At <= recent)
            {
                return current;
            }
            var writes = Volatile.Read(ref _writes);
            var value = await load(ct);
            // A write on this instance while the load ran may not be in what it read: its caller, who asked
            // before that write, takes it; the next reader loads again.
            var fresh = new Loaded(value, clock.GetUtcNow(), Invalidated: writes != Volatile.Read(ref _writes));
            _current = fresh;
            return fresh;
        }
        finally
        {
            _loading.Release();
        }
    }

    /// <summary>One reload at a time behind the readers; a failed one leaves the copy as it was, and the next old read tries again.</summary>
    private void ReloadBehind(Loaded seen)
    {
        if (Interlocked.CompareExchange(ref _behind, 1, 0) != 0)
        {
            return;
        }
        _ = Task.Run(async () =>
        {
            try
            {
                await ReloadAsync(seen, maxAge, CancellationToken.None);
            }
            catch (Exception)
            {
                // The database is away: the copy answers as it is, and the next read past the age tries again.
            }
            finally
            {
                Volatile.Write(ref _behind, 0);
            }
        });
    }
}
