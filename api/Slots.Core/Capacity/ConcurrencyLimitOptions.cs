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

    /// <summary>
    /// Where HAProxy's agent check asks this instance how many connections to send it ("127.0.0.1:5151", "0.0.0.0:8081"):
    /// the learnt limit plus <see cref="AgentHeadroom"/>, so the requests past the limit wait and are turned away in
    /// HAProxy, which costs the instance nothing. Unset: no agent, and HAProxy keeps its configured maxconn.
    /// </summary>
    public string? Agent { get; set; }

    /// <summary>Connections HAProxy may send past the limit, for the requests the limit does not guard (availability, the waiting room).</summary>
    public int AgentHeadroom { get; set; } = 4;

    /// <summary>The agent's address; null when <see cref="Agent"/> is unset or not an address with a port.</summary>
    public System.Net.IPEndPoint? AgentEndpoint() =>
        System.Net.IPEndPoint.TryParse(Agent ?? "", out var endpoint) && endpoint.Port > 0 ? endpoint : null;

    /// <summary>Why these options cannot work, naming the key; null when they can.</summary>
    public string? Problem() =>
        TargetLatency <= TimeSpan.Zero ? $"{Section}:TargetLatency must be positive"
        : Window <= TimeSpan.Zero ? $"{Section}:Window must be positive"
        : MinLimit < 1 ? $"{Section}:MinLimit must be at least 1 (a limit of 0 admits nothing and never learns)"
        : MaxLimit < MinLimit ? $"{Section}:MaxLimit must be at least MinLimit ({MinLimit})"
        : InitialLimit < MinLimit || InitialLimit > MaxLimit ? $"{Section}:InitialLimit must be between MinLimit ({MinLimit}) and MaxLimit ({MaxLimit})"
        : Agent is not null && AgentEndpoint() is null ? $"{Section}:Agent must be an address and port, such as 127.0.0.1:5151"
        : AgentHeadroom < 0 ? $"{Section}:AgentHeadroom must not be negative"
        : null;
}
