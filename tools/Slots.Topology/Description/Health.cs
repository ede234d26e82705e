namespace Slots.Topology;

/// <summary>How a node is known to be healthy (a dependency's Healthy, a job's Completed).</summary>
public abstract record Health
{
    /// <summary>An HTTP GET that answers 2xx (the hosts' /health/ready).</summary>
    public sealed record Http(Uri Url) : Health;

    /// <summary>Something accepts TCP connections on the port.</summary>
    public sealed record Tcp(int Port) : Health;

    /// <summary>pg_isready on 127.0.0.1:port.</summary>
    public sealed record PostgresAccepts(int Port) : Health;

    /// <summary>etcd's /health answers "health":"true".</summary>
    public sealed record EtcdHealthy(int ClientPort) : Health;

    /// <summary>Patroni's /health answers 2xx: the leader, or a replica that streams.</summary>
    public sealed record PatroniServes(int RestPort) : Health;

    /// <summary>Patroni's /cluster (any of these nodes answers for all) shows a running leader and a
    /// synchronous standby that runs or streams.</summary>
    public sealed record PatroniSynced(IReadOnlyList<int> RestPorts) : Health;

    /// <summary>rabbitmq-diagnostics answers for the node (ping on the single stack, check_running on HA),
    /// while the stack's own epmd runs.</summary>
    public sealed record RabbitRunning(string Node) : Health;

    /// <summary>rabbitmqctl cluster_status lists this many running nodes.</summary>
    public sealed record RabbitCluster(int Size) : Health;

    /// <summary>HAProxy's stats CSV on the port: for "api" every one of Count servers is UP; for "postgres"
    /// at least Count servers are UP (the one whose Patroni /primary answers).</summary>
    public sealed record HaproxyUp(int StatsPort, string Backend, int Count) : Health;

    /// <summary>A job whose command exited 0.</summary>
    public sealed record Done : Health;
}
