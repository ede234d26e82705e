namespace Slots.Capacity;

/// <summary>
/// How many requests may be in flight, learnt from how fast the admitted ones are answered: additive
/// increase, multiplicative decrease on latency (the AIMD limit of Netflix's concurrency-limits, judged
/// per window as Envoy's adaptive concurrency filter samples). A fixed count tuned on one machine admits
/// too many on a slower one and too few on a faster one; this one finds the count at which answers
/// stay within <see cref="ConcurrencyLimitOptions.TargetLatency"/>, and everything past it is told at once.
/// <para>
/// Per window: when more than 1 % of the answers took longer than the target (the window's p99 missed
/// it), the limit drops to 90 %, never under the floor; when none did and the window used at least half
/// of the limit, it grows by √limit (fast from a low floor, gently near the top), never over the
/// ceiling. An unused limit does not grow: it would admit a burst it never saw answered in time.
/// </para>
/// Pure policy: no HTTP, the clock injected. Thread-safe; admission is one compare-and-swap.
/// </summary>
public sealed class ConcurrencyLimit
{
    private const double Backoff = 0.9;

    private readonly TimeProvider _clock;
    private readonly TimeSpan _target;
    private readonly TimeSpan _window;
    private readonly int _min;
    private readonly int _max;
    private readonly Lock _gate = new();
    private int _limit;
    private int _inFlight;
    private int _peak;

    // The window being gathered; written under _gate.
    private long _windowStart;
    private int _answers;
    private int _slow;

    public ConcurrencyLimit(ConcurrencyLimitOptions options, TimeProvider clock)
    {
        if (options.Problem() is { } problem)
        {
            throw new ArgumentException(problem, nameof(options));
        }
        _clock = clock;
        _target = options.TargetLatency;
        _window = options.Window;
        _min = options.MinLimit;
        _max = options.MaxLimit;
        _limit = options.InitialLimit;
        _windowStart = clock.GetTimestamp();
    }

    /// <summary>Requests allowed in flight now.</summary>
    public int Limit => Volatile.Read(ref _limit);

    /// <summary>Requests admitted and not yet released.</summary>
    public int InFlight => Volatile.Read(ref _inFlight);

    /// <summary>
    /// Admits the request when fewer than <see cref="Limit"/> are in flight; <paramref name="startedAt"/>
    /// is then the timestamp to hand back to <see cref="Release"/>. False: turn it away now.
    /// </summary>
    public bool TryAcquire(out long startedAt)
    {
        while (true)
        {
            var inFlight = Volatile.Read(ref _inFlight);
            if (inFlight >= Volatile.Read(ref _limit))
            {
                startedAt = 0;
                return false;
            }
            // A compare-and-swap, not a check then an increment: two racers for the last place cannot both get it.
            if (Interlocked.CompareExchange(ref _inFlight, inFlight + 1, inFlight) == inFlight)
            {
                RaisePeak(inFlight + 1);
                startedAt = _clock.GetTimestamp();
                return true;
            }
        }
    }

    /// <summary>An admitted request is answered: its latency counts towards the window, which may move the limit.</summary>
    public void Release(long startedAt)
    {
        Interlocked.Decrement(ref _inFlight);
        var now = _clock.GetTimestamp();
        var latency = _clock.GetElapsedTime(startedAt, now);
        lock (_gate)
        {
            _answers++;
            if (latency > _target)
            {
                _slow++;
            }
            if (_clock.GetElapsedTime(_windowStart, now) >= _window)
            {
                Adjust();
                _windowStart = now;
                _answers = 0;
                _slow = 0;
                Volatile.Write(ref _peak, Volatile.Read(ref _inFlight));
            }
        }
    }

    private void Adjust()
    {
        var limit = Volatile.Read(ref _limit);
        int next;
        if (_slow * 100 > _answers)
        {
            next = Math.Max(_min, Math.Min(limit - 1, (int)(limit * Backoff)));
        }
        else if (_slow == 0 && Volatile.Read(ref _peak) * 2 >= limit)
        {
            next = Math.Min(_max, limit + Math.Max(1, (int)Math.Sqrt(limit)));
        }
        else
        {
            return;
        }
        Volatile.Write(ref _limit, next);
    }

    private void RaisePeak(int inFlight)
    {
        var peak = Volatile.Read(ref _peak);
        while (inFlight > peak && Interlocked.CompareExchange(ref _peak, inFlight, peak) is var seen && seen != peak)
        {
            peak = seen;
        }
    }
}
