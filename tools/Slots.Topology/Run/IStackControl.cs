namespace Slots.Topology.Run;

/// <summary>What the chaos soak's nemesis asks of a running stack: which processes a part has, which PostgreSQL
/// node leads, to start a part again (its heal), and to bring every part up after the last fault. A fake stands in
/// for it in tests.</summary>
public interface IStackControl
{
    /// <summary>The part's process ids (see <see cref="Stack.PidsAsync"/>), or null when it is not running.</summary>
    Task<IReadOnlyList<int>?> PidsAsync(string part, CancellationToken ct);

    /// <summary>Starts the part again and waits until it is healthy.</summary>
    Task StartAsync(string part, CancellationToken ct);

    /// <summary>The Patroni node that leads now (pg1..pg3), or null when none does or the stack is single.</summary>
    Task<string?> PrimaryAsync(CancellationToken ct);

    /// <summary>Starts whatever is not running and waits until every part is healthy (`up`).</summary>
    Task UpAsync(CancellationToken ct);

    /// <summary>Stops the single stack's PostgreSQL: fast or immediate (a crash).</summary>
    Task PgStopAsync(string mode, CancellationToken ct);
}
