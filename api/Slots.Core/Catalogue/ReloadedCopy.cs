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
/// <c>recent</c>.</item>
/// </list>
/// Readers that need a load share the one running, if it began after the last write, and are all
/// answered when it ends: a crowd waiting for a first load once went through a gate one by one, each
/// turn a trip through the thread pool's queue, which in a stampede took seconds.
/// </summary>
internal sealed class ReloadedCopy<T>(Func<CancellationToken, Task<T>> load, TimeProvider clock, TimeSpan maxAge) where T : class
{
    private readonly Lock _gate = new();
    private volatile Loaded? _current; // null: never loaded
    private int _behind;
    private int _writes; // invalidations so far: a load that saw fewer read the tables before a write

    // Under _gate: the load running now and the invalidations when it began; loads begun, and the last one stored.
    private Task<Loaded>? _running;
    private int _runningWrites;
    private long _begun;
    private long _stored;

    /// <summary>One load of the copy: when, and whether a write on this instance has made it unfit to answer.</summary>
    public sealed record Loaded(T Value, DateTimeOffset At, bool Invalidated = false);

    /// <summary>The copy to answer from; loaded first when there is none fit.</summary>
    public ValueTask<Loaded> GetAsync(CancellationToken ct)
    {
        var current = _current;
        if (current is null || current.Invalidated)
        {
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
    /// Loads the copy again, unless one loaded within <paramref name="recent"/> is there that is not
    /// <paramref name="seen"/> (a concurrent miss's): that one is answered. A load running that began
    /// after the last write is shared.
    /// </summary>
    public Task<Loaded> ReloadAsync(Loaded? seen, TimeSpan recent, CancellationToken ct)
    {
        Task<Loaded> running;
        lock (_gate)
        {
            var current = _current;
            if (current is { Invalidated: false } && !ReferenceEquals(seen, current) && clock.GetUtcNow() - current.At <= recent)
            {
                return Task.FromResult(current);
            }
            var writes = Volatile.Read(ref _writes);
            if (_running is not { IsCompleted: false } || _runningWrites != writes)
            {
                _running = LoadAsync(++_begun, writes);
                _runningWrites = writes;
            }
            running = _running;
        }
        return running.WaitAsync(ct);
    }

    /// <summary>One load, shared by its readers (so no reader's token cancels it); a later-begun load's copy is never replaced by an earlier one's.</summary>
    private async Task<Loaded> LoadAsync(long number, int writes)
    {
        await Task.Yield(); // begun under the gate; the database round trip runs outside it
        var value = await load(CancellationToken.None);
        // A write on this instance while the load ran may not be in what it read: its readers, who asked
        // before that write, take it; the next reader loads again.
        var fresh = new Loaded(value, clock.GetUtcNow(), Invalidated: writes != Volatile.Read(ref _writes));
        lock (_gate)
        {
            if (number > _stored)
            {
                _stored = number;
                _current = fresh;
            }
        }
        return fresh;
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
