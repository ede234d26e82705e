using static Slots.Topology.HostNodes;

namespace Slots.Topology;

/// <summary>The high-availability stack: three etcd members, PostgreSQL
/// nodes under Patroni (a primary, a synchronous standby, an async one), three RabbitMQ nodes in one cluster, two
/// HAProxy peers that also route to the primary, then the hosts. Why these settings: docs/reliability.md.
/// pgBackRest's stanza-create and backups run on whichever node leads at that moment, so they are the runtime's
/// (BackupSettings.On), not nodes here.</summary>
internal static class HaShape
{
    public const int EtcdMembers = 3;

    public const int RabbitNodes = 3;

    public const int HaproxyNodes = 2;

    public static IReadOnlyList<Node> Nodes(StackOptions options)
    {
        var ports = options.Ports;
        var etcds = Enumerable.Range(1, EtcdMembers).Select(n => Name("etcd", n)).ToList();
        var pgs = Enumerable.Range(1, options.PgNodes).Select(n => Name("pg", n)).ToList();
        var rabbits = Enumerable.Range(1, RabbitNodes).Select(n => Name("rabbitmq", n)).ToList();
        var apis = Enumerable.Range(1, options.Apis).Select(i => Name("api", i)).ToList();
        var tls = Tls(options);
        var cookie = RabbitConfig.Cookie(options);

        var nodes = new List<Node>();
        nodes.AddRange(Enumerable.Range(1, EtcdMembers).Select(n => Etcd(options, n)));
        // The first Patroni node bootstraps the cluster; the others then copy it (pg_basebackup).
        nodes.Add(Patroni(options, 1, [.. etcds.Select(Healthy)]));
        nodes.AddRange(Enumerable.Range(2, options.PgNodes - 1).Select(n => Patroni(options, n, [Healthy("pg1")])));
        // A leader and a synchronous standby that streams: a booking's commit is on two nodes before its 201.
        nodes.Add(Gate("pg-synced", [.. pgs.Select(Healthy)],
            new Health.PatroniSynced([.. Enumerable.Range(1, options.PgNodes).Select(ports.Patroni)])));
        nodes.Add(Epmd(options));
        nodes.Add(Rabbit(options, 1, cookie, [Started("epmd"), Completed("pg-synced")]));
        nodes.AddRange(Enumerable.Range(2, RabbitNodes - 1).Select(n => Rabbit(options, n, cookie, [Healthy("rabbitmq1")])));
        if (tls is not null)
        {
            nodes.Add(tls);
        }

        nodes.AddRange(Enumerable.Range(1, HaproxyNodes).Select(n => Haproxy(options, n, tls)));
        nodes.Add(PostgresSettings.CreateDatabase(ports.Postgres, [Healthy("haproxy1")]));
        nodes.Add(Gate("rabbit-cluster", [.. rabbits.Select(Healthy)], new Health.RabbitCluster(RabbitNodes)));
        nodes.Add(Api(options, 1, [Completed("create-db"), Completed("rabbit-cluster")]));
        nodes.AddRange(Enumerable.Range(2, options.Apis - 1).Select(i => Api(options, i, [Healthy("api1")])));
        nodes.AddRange(Enumerable.Range(1, options.Schedulers).Select(n => Scheduler(options, n, [.. apis.Select(Healthy)])));
        // `up` ends when both HAProxy nodes see every API instance UP.
        nodes.AddRange(Enumerable.Range(1, HaproxyNodes).Select(n => Gate(
            $"haproxy{n}-apis",
            [Healthy(Name("haproxy", n)), .. apis.Select(Healthy)],
            new Health.HaproxyUp(ports.HaproxyStats(n), "api", options.Apis))));
        return nodes;
    }

    /// <summary>etcd member n. Election timeout 2 s (default 1 s): on a starved 2-core machine a 100 ms heartbeat
    /// is missed now and then, and a needless election costs Patroni a DCS round trip; still well inside
    /// Patroni's retry_timeout. A known difference from compose (KnownDifferences).</summary>
    private static Node Etcd(StackOptions options, int n)
    {
        var ports = options.Ports;
        var name = Name("etcd", n);
        var client = $"http://{HaproxyEnvironment.Loopback(ports.EtcdClient(n))}";
        var peer = $"http://{HaproxyEnvironment.Loopback(ports.EtcdPeer(n))}";
        var cluster = string.Join(",", Enumerable.Range(1, EtcdMembers)
            .Select(m => $"etcd{m}=http://{HaproxyEnvironment.Loopback(ports.EtcdPeer(m))}"));
        var data = Path.Combine(options.StateDir, "etcd", name);
        return new Node(
            name,
            NodeKind.Etcd,
            new Command(
                "etcd",
                "--name", name, "--data-dir", data,
                "--listen-client-urls", client, "--advertise-client-urls", client,
                "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                "--initial-cluster", cluster, "--initial-cluster-state", "new",
                "--initial-cluster-token", $"slots-{StateHash.Of(options.StateDir)}",
                "--heartbeat-interval", "200", "--election-timeout", "2000", "--logger", "zap"),
            [new Port(name, ports.EtcdClient(n)), new Port($"{name}-peer", ports.EtcdPeer(n))],
            [],
            [],
            new Health.EtcdHealthy(ports.EtcdClient(n)),
            StopStyle.Term20Then9,
            new PidSource.PidFile(),
            data);
    }

    /// <summary>PostgreSQL node n under Patroni, run as the postgres user with its PID kept (setpriv, exec): the PID
    /// file names Patroni itself, which the chaos soak kills by PID. pgBackRest's configuration is written before
    /// any node starts, as their archive_command reads it.</summary>
    private static Node Patroni(StackOptions options, int n, IReadOnlyList<Dependency> after)
    {
        var ports = options.Ports;
        var name = Name("pg", n);
        var dir = PatroniSettings.NodeFolder(options, n);
        var config = Path.Combine(dir, "patroni.yml");
        List<ConfigFile> files = [new ConfigFile(config, PatroniSettings.Stack.Render(options, n), PostgresOwned: true)];
        if (options.Backup)
        {
            files.Insert(0, BackupSettings.File(options));
        }

        return new Node(
            name,
            NodeKind.Patroni,
            new Command("patroni", [config], [], RunAs: RunAs.Postgres),
            [new Port(name, ports.PgNode(n)), new Port($"{name}-patroni", ports.Patroni(n))],
            files,
            after,
            new Health.PatroniServes(ports.Patroni(n)),
            StopStyle.PatroniReplicasFirst,
            new PidSource.PidFile(),
            Path.Combine(dir, "data"));
    }

    private static Node Rabbit(StackOptions options, int n, ConfigFile cookie, IReadOnlyList<Dependency> after)
    {
        var port = options.Ports.RabbitAmqp(n);
        var name = Name("rabbitmq", n);
        var dir = RabbitConfig.HaFolder(options, n);
        return new Node(
            name,
            NodeKind.RabbitMq,
            new Command(RabbitConfig.Server, [], RabbitConfig.HaEnvironment(options, n)),
            [new Port(name, port), new Port($"{name}-distribution", port + 1)],
            [
                new ConfigFile(Path.Combine(dir, "rabbitmq.conf"), RabbitConfig.RenderHa(options, n)),
                new ConfigFile(Path.Combine(dir, "enabled_plugins"), RabbitConfig.EnabledPlugins(management: n == 1)),
                new ConfigFile(Path.Combine(RabbitConfig.HaHome(options), "empty.env"), ""),
                cookie,
            ],
            after,
            new Health.RabbitRunning(RabbitConfig.HaNode(n)),
            StopStyle.RabbitTerm,
            new PidSource.Beam(RabbitConfig.HaNode(n)),
            Path.Combine(dir, "mnesia"));
    }

    private static Node Haproxy(StackOptions options, int n, Node? tls)
    {
        var ports = options.Ports;
        var name = Name("haproxy", n);
        List<Dependency> after = [Completed("pg-synced")];
        if (tls is not null)
        {
            after.Add(Completed(tls.Name));
        }

        return new Node(
            name,
            NodeKind.Haproxy,
            HostNodes.Haproxy(options, name, HaproxyEnvironment.OfHaNode(options, n)),
            [
                new Port(name, ports.HaproxyFront(n)),
                new Port($"{name}-stats", ports.HaproxyStats(n)),
                new Port($"{name}-redirect", ports.HaproxyRedirect(n)),
                new Port($"{name}-postgres", ports.HaproxyPostgres(n)),
                new Port($"{name}-peer", ports.Peer(n)),
                new Port($"{name}-admin", ports.Admin(n)),
            ],
            [],
            after,
            // Routes to the primary: one PostgreSQL server UP, the one whose Patroni /primary answers 200.
            new Health.HaproxyUp(ports.HaproxyStats(n), "postgres", 1),
            StopStyle.Term20Then9,
            new PidSource.WithChildren());
    }

    private static Node Gate(string name, IReadOnlyList<Dependency> after, Health ready) =>
        new(name, NodeKind.Gate, null, [], [], after, ready, StopStyle.Nothing, new PidSource.None());
}
