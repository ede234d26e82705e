namespace Slots.Topology.Tests.Description;

/// <summary>The shapes: start order, ports, counts and the checks the scripts make on their knobs.</summary>
public sealed class ShapeTests
{
    private static string[][] WaveNames(Topology topology) =>
        [.. topology.Waves().Select(w => w.Select(n => n.Name).ToArray())];

    [Fact]
    public void The_single_stack_starts_in_the_scripts_order_with_independent_parts_together()
    {
        var topology = Topology.Describe(Golden.Options() with { Apis = 3, Schedulers = 2 });

        Assert.Equal(
            [
                ["postgres", "epmd", "tls"],
                ["create-db", "rabbitmq"],
                ["api1"],
                ["api2", "api3"],
                ["scheduler", "scheduler2", "haproxy"],
                ["haproxy-apis"],
            ],
            WaveNames(topology));
        Assert.Equal(new Health.Tcp(topology.Options.Ports.Front), topology["haproxy"].Ready);
        Assert.Equal(new Health.HaproxyUp(8404, "api", 3), topology["haproxy-apis"].Ready);
    }

    [Fact]
    public void The_HA_stack_starts_in_the_scripts_order_with_independent_parts_together()
    {
        var topology = Topology.Describe(Golden.Options(Shape.Ha, backup: true));

        Assert.Equal(
            [
                ["etcd1", "etcd2", "etcd3", "epmd", "tls"],
                ["pg1"],
                ["pg2", "pg3"],
                ["pg-synced"],
                ["rabbitmq1", "haproxy1", "haproxy2"],
                ["rabbitmq2", "rabbitmq3", "create-db"],
                ["rabbit-cluster"],
                ["api1"],
                ["api2"],
                ["scheduler", "haproxy1-apis", "haproxy2-apis"],
            ],
            WaveNames(topology));
        Assert.Equal([28008, 28009, 28010], Assert.IsType<Health.PatroniSynced>(topology["pg-synced"].Ready).RestPorts);
        Assert.Equal(new Health.HaproxyUp(8405, "postgres", 1), topology["haproxy2"].Ready);
        Assert.Equal(new Health.HaproxyUp(8405, "api", 2), topology["haproxy2-apis"].Ready);
        Assert.Equal(new Health.RabbitCluster(3), topology["rabbit-cluster"].Ready);
    }

    [Fact]
    public void Two_postgres_nodes_make_a_two_node_patroni_cluster_and_haproxy_routes_to_both()
    {
        var topology = Topology.Describe(Golden.Options(Shape.Ha) with { PgNodes = 2 });

        Assert.Equal(["pg1", "pg2"], topology.Nodes.Where(n => n.Kind == NodeKind.Patroni).Select(n => n.Name));
        var env = topology["haproxy1"].Start!.EffectiveEnv();
        Assert.Equal("127.0.0.1:25442", env["SLOTS_PG_2"]);
        Assert.False(env.ContainsKey("SLOTS_PG_3"));
    }

    [Fact]
    public void Waves_refuse_a_dependency_cycle_and_name_its_nodes()
    {
        var topology = Topology.Describe(Golden.Options());
        var api1 = topology["api1"];
        var cyclic = topology with
        {
            Nodes = [.. topology.Nodes.Select(n => n == api1 ? n with { After = [new Dependency("api2", Condition.Healthy)] } : n)],
        };

        var error = Assert.Throws<InvalidOperationException>(cyclic.Waves);

        Assert.Contains("api1", error.Message, StringComparison.Ordinal);
        Assert.Contains("api2", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Waves_refuse_a_dependency_on_a_node_that_is_not_there()
    {
        var topology = Topology.Describe(Golden.Options());
        var lonely = topology with { Nodes = [.. topology.Nodes.Where(n => n.Name != "postgres")] };

        var error = Assert.Throws<InvalidOperationException>(lonely.Waves);

        Assert.Equal("create-db waits for postgres, which is not in the stack.", error.Message);
    }

    public static TheoryData<Shape, string> Plans() => new()
    {
        { Shape.Single, "stack" },
        { Shape.Single, "chaos" },
        { Shape.Ha, "stack" },
        { Shape.Ha, "chaos" },
    };

    [Theory]
    [MemberData(nameof(Plans))]
    public void No_two_parts_bind_the_same_port_even_at_the_largest_counts(Shape shape, string plan)
    {
        var options = Golden.Options(shape) with
        {
            Apis = 4,
            Schedulers = 2,
            Ports = plan == "chaos" ? PortPlan.Chaos : PortPlan.Stack,
        };

        var binds = Topology.Describe(options).Nodes.SelectMany(n => n.Binds).ToList();

        Assert.NotEmpty(binds);
        var shared = binds.GroupBy(b => b.Number).Where(g => g.Count() > 1).Select(g => string.Join(", ", g.Select(b => b.Label)));
        Assert.Empty(shared);
        Assert.Equal(binds.Count, binds.Select(b => b.Label).Distinct().Count());
    }

    [Fact]
    public void The_chaos_ports_are_chaos_sh_ones_and_the_second_nodes_follow_the_first()
    {
        var chaos = PortPlan.Chaos;

        Assert.Equal(
            (8180, 8190, 8504, 25532, 5111, 5189, 26730, 26731, 26732, 26733, 26900, 25541, 28108, 26840, 26890),
            (chaos.Front, chaos.Redirect, chaos.Stats, chaos.Postgres, chaos.ApiFirst, chaos.SchedulerFirst, chaos.Amqp,
                chaos.RabbitDist, chaos.RabbitMgmt, chaos.Epmd, chaos.EtcdFirst, chaos.PgNodeFirst, chaos.PatroniFirst,
                chaos.RabbitFirst, chaos.PeerFirst));
        Assert.Equal((8181, 8191, 8505, 25533, 8506), (chaos.Front2, chaos.Redirect2, chaos.Stats2, chaos.Postgres2, chaos.AdminFirst));
        Assert.Equal((8444, 8081, 8405, 55433, 8406),
            (PortPlan.Stack.Front2, PortPlan.Stack.Redirect2, PortPlan.Stack.Stats2, PortPlan.Stack.Postgres2, PortPlan.Stack.AdminFirst));
    }

    [Fact]
    public void Patroni_settings_keep_loop_wait_plus_two_retries_within_the_ttl()
    {
        Assert.True(PatroniSettings.Stack.Consistent);
        Assert.Equal((9, 1, 4), (PatroniSettings.Stack.Ttl, PatroniSettings.Stack.LoopWait, PatroniSettings.Stack.RetryTimeout));
        Assert.False((PatroniSettings.Stack with { Ttl = 8 }).Consistent);
    }

    [Theory]
    [InlineData(0, 1, 3, "SLOTS_API_COUNT must be 1..4 (haproxy.cfg names SLOTS_API_1 .. SLOTS_API_4).")]
    [InlineData(5, 1, 3, "SLOTS_API_COUNT must be 1..4 (haproxy.cfg names SLOTS_API_1 .. SLOTS_API_4).")]
    [InlineData(2, 0, 3, "SLOTS_SCHEDULER_COUNT must be 1..2.")]
    [InlineData(2, 3, 3, "SLOTS_SCHEDULER_COUNT must be 1..2.")]
    [InlineData(2, 1, 1, "SLOTS_PG_NODES must be 2..3.")]
    [InlineData(2, 1, 4, "SLOTS_PG_NODES must be 2..3.")]
    public void Counts_out_of_range_are_refused_with_the_scripts_messages(int apis, int schedulers, int pgNodes, string message)
    {
        var options = Golden.Options(Shape.Ha) with { Apis = apis, Schedulers = schedulers, PgNodes = pgNodes };

        var error = Assert.Throws<ArgumentException>(() => Topology.Describe(options));

        Assert.Equal(message, error.Message);
    }

    [Fact]
    public void The_single_stack_ignores_the_postgres_node_count_as_the_script_does()
    {
        var topology = Topology.Describe(Golden.Options() with { PgNodes = 7 });

        Assert.DoesNotContain(topology.Nodes, n => n.Kind == NodeKind.Patroni);
    }

    [Fact]
    public void Every_known_difference_from_compose_says_why()
    {
        Assert.Equal(["etcd timing", "PostgreSQL connection budget"], KnownDifferences.All.Select(d => d.Subject));
        Assert.All(KnownDifferences.All, d => Assert.False(string.IsNullOrWhiteSpace(d.Reason)));
    }
}
