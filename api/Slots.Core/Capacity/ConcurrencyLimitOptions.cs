namespace Slots.Capacity;

/// <summary>
/// The adaptive concurrency limit in front of the booking path (<see cref="ConcurrencyLimit"/>): how
/// fast an admitted answer must be, and the bounds the limit moves between.
/// </summary>
public sealed class ConcurrencyLimitOptions
{
    public const string Section = "Slots:ConcurrencyLimit";

    /// <summary>
    /// An admitted request's handling time that the limit aims under at the 99th percentile. Half the
    /// 100 ms budget an admitted answer has at the server: the rest is HAProxy, Kestrel and the network.
    /// </summary>
    public TimeSpan TargetLatency { get; set; } = TimeSpan.FromMilliseconds(50);

    /// <summary>Requests in flight allowed at start, before any latency has been measured.</summary>
    public int InitialLimit { get; set; } = 32;

    /// <summary>The floor: however slow the answers, this many are still admitted, so the limit can learn that they got fast again.</summary>
    public int MinLimit { get; set; } = 4;

    /// <summary>The ceiling; HAProxy's per-server maxconn stays above it (haproxy/haproxy.cfg).</summary>
    public int MaxLimit { get; set; } = 200;

    /// <summary>How long the limit gathers answers before it moves once: short enough to follow a stampede's step, long enough to hold tens of answers.</summary>
    public TimeSpan Window { get; set; } = TimeSpan.FromMilliseconds(100);

    /// <summary>Why these options cannot work, naming the key; null when they can.</summary>
    public string? Problem() =>
        TargetLatency <= TimeSpan.Zero ? $"{Section}:TargetLatency must be positive"
        : Window <= TimeSpan.Zero ? $"{Section}:Window must be positive"
        : MinLimit < 1 ? $"{Section}:MinLimit must be at least 1 (a limit of 0 admits nothing and never learns)"
        : MaxLimit < MinLimit ? $"{Section}:MaxLimit must be at least MinLimit ({MinLimit})"
        : InitialLimit < MinLimit || InitialLimit > MaxLimit ? $"{Section}:InitialLimit must be between MinLimit ({MinLimit}) and MaxLimit ({MaxLimit})"
        : null;
}
