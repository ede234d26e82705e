using static Slots.Topology.HostNodes;

namespace Slots.Topology;

/// <summary>The single-node stack: PostgreSQL, RabbitMQ with its own epmd,
/// N API instances, the scheduler node(s), HAProxy in front.</summary>
internal static class SingleShape
{
    public static IReadOnlyList<Node> Nodes(StackOptions options)
    {
        var apis = Enumerable.Range(1, options.Apis).Select(i => Name("api", i)).ToList();
        var tls = Tls(options);
        var nodes = new List<Node>
        {
            PostgresSettings.Node(options),
            PostgresSettings.CreateDatabase(options.Ports.Postgres, [Healthy("postgres")]),
            Epmd(options),
            Rabbit(options),
            // One instance first: it migrates the schema and creates the demo data on an empty database; the others
            // then find both done (the migrator's advisory lock would make a race safe anyway).
            Api(options, 1, [Completed("create-db")]),
        };
        nodes.AddRange(Enumerable.Range(2, options.Apis - 1).Select(i => Api(options, i, [Healthy("api1")])));
        nodes.AddRange(Enumerable.Range(1, options.Schedulers)
            .Select(n => Scheduler(options, n, [.. apis.Select(Healthy), Healthy("rabbitmq")])));
        if (tls is not null)
        {
            nodes.Add(tls);
        }

        nodes.Add(Haproxy(options, apis, tls));
        // `up` ends when HAProxy sees every API instance UP; HAProxy's own health (the chaos soak's and `start`'s
        // wait) is its front port, as on the HA stack.
        nodes.Add(new Node(
            "haproxy-apis", NodeKind.Gate, null, [], [], [Healthy("haproxy"), .. apis.Select(Healthy)],
            new Health.HaproxyUp(options.Ports.Stats, "api", options.Apis), StopStyle.Nothing, new PidSource.None()));
        return nodes;
    }

    private static Node Rabbit(StackOptions options)
    {
        var home = RabbitConfig.SingleHome(options);
        return new Node(
            "rabbitmq",
            NodeKind.RabbitMq,
            new Command(RabbitConfig.Server, [], RabbitConfig.SingleEnvironment(options)),
            [new Port("rabbitmq", options.Ports.Amqp), new Port("rabbitmq-management", options.Ports.RabbitMgmt)],
            [
                new ConfigFile(Path.Combine(home, "rabbitmq.conf"), RabbitConfig.RenderSingle(options)),
                new ConfigFile(Path.Combine(home, "enabled_plugins"), RabbitConfig.EnabledPlugins(management: true)),
            ],
            [Started("epmd")],
            new Health.RabbitRunning(RabbitConfig.SingleNode),
            StopStyle.RabbitTerm,
            new PidSource.Beam(RabbitConfig.SingleNode),
            Path.Combine(home, "mnesia"));
    }

    private static Node Haproxy(StackOptions options, IReadOnlyList<string> apis, Node? tls)
    {
        var ports = options.Ports;
        List<Dependency> after = [.. apis.Select(Healthy), Healthy("rabbitmq")];
        if (tls is not null)
        {
            after.Add(Completed(tls.Name));
        }

        return new Node(
            "haproxy",
            NodeKind.Haproxy,
            HostNodes.Haproxy(options, null, HaproxyEnvironment.OfSingle(options)),
            [new Port("haproxy", ports.Front), new Port("haproxy-stats", ports.Stats), new Port("haproxy-redirect", ports.Redirect)],
            [],
            after,
            new Health.Tcp(ports.Front),
            StopStyle.Term20Then9,
            new PidSource.WithChildren());
    }
}
