namespace Slots.Topology.Run;

public sealed partial class Stack
{
    /// <summary>One part as `status` shows it.</summary>
    public sealed record PartStatus(string Part, int? Pid, bool Up, bool Healthy, string Detail);

    /// <summary>Every part that runs a process: its PID, whether it runs, whether its health check holds, and
    /// what it is (the address; on the HA stack Patroni's role, state and lag, HAProxy's primary).</summary>
    public async Task<IReadOnlyList<PartStatus>> StatusAsync(CancellationToken ct)
    {
        var patroniPorts = Topology.Nodes.Where(n => n.Kind == NodeKind.Patroni).Select(n => n.Binds[1].Number).ToList();
        var members = patroniPorts.Count == 0 ? null : await PatroniCluster.ReadAsync(_http, patroniPorts, ct);
        var parts = Topology.Nodes.Where(n => n.Pid is not PidSource.None).ToList();
        return await Task.WhenAll(parts.Select(n => StatusOfAsync(n, members, ct)));
    }

    /// <summary>Each API's and scheduler's key figures from its /metrics (<see cref="Metrics.Figures"/>).</summary>
    public async Task<IReadOnlyList<(string Part, string Figures)>> FiguresAsync(CancellationToken ct)
    {
        var hosts = Topology.Nodes.Where(n => n.Kind is NodeKind.Api or NodeKind.Scheduler).ToList();
        var texts = await Task.WhenAll(hosts.Select(n =>
            Probes.GetTextAsync(_http, new Uri($"http://127.0.0.1:{n.Binds[0].Number}/metrics"), ct)));
        return [.. hosts.Zip(texts, (n, text) => (n.Name, text is null ? "no metrics" : Metrics.Figures(text)))];
    }

    private async Task<PartStatus> StatusOfAsync(Node node, IReadOnlyList<PatroniCluster.Member>? members, CancellationToken ct)
    {
        var pid = node.Pid is PidSource.Postmaster ? ProcTree.ReadPidFile(Postgres.PostmasterPid(node)) : ProcTree.ReadPidFile(PidFile(node.Name));
        var up = pid is { } p && ProcTree.Alive(p);
        var healthy = up && await Probe.ReadyAsync(node, ct);
        var address = node.Binds.Count > 0 ? $"127.0.0.1:{node.Binds[0].Number}" : "";
        var detail = node.Kind switch
        {
            NodeKind.Patroni => members?.FirstOrDefault(m => m.Name == node.Name) is { } m
                ? $"{m.Role}, {m.State}, lag {m.Lag} bytes, {address}"
                : $"not in the cluster, {address}",
            NodeKind.Haproxy when healthy && StatsPort(node) is { } stats
                && await HaproxyStats.ReadAsync(_http, stats, ct) is { } servers =>
                $"api UP {HaproxyStats.Up(servers, "api").Count}/{Options.Apis}"
                + (Options.Shape == Shape.Ha ? $", primary {string.Join(",", HaproxyStats.Up(servers, "postgres"))}" : "")
                + $", https://{address}/",
            _ => address,
        };
        return new PartStatus(node.Name, pid, up, healthy, detail);
    }

    /// <summary>An HAProxy node's stats port: the HA nodes' health reads it; the single node's is the stack's.</summary>
    private int? StatsPort(Node node) =>
        node.Ready is Health.HaproxyUp h ? h.StatsPort : Options.Shape == Shape.Single ? Options.Ports.Stats : null;
}
