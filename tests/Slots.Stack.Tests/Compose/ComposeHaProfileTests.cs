extern alias core;

using System.Text.RegularExpressions;
using Slots.Testing;
using YamlDotNet.RepresentationModel;
using static Slots.Stack.Tests.Compose.ComposeFile;

namespace Slots.Stack.Tests.Compose;

/// <summary>
/// docker-compose.yml's `ha` profile, read as YAML: it has never run (no Docker where it was written),
/// so what can be checked without it is checked here: every dependency exists, every address and name
/// that one service gives another matches, and HAProxy accepts its config with each node's variables.
/// </summary>
public sealed partial class ComposeHaProfileTests
{
    private static readonly string[] Etcd = ["ha-etcd1", "ha-etcd2", "ha-etcd3"];
    private static readonly string[] Postgres = ["ha-pg1", "ha-pg2", "ha-pg3"];
    private static readonly string[] Rabbit = ["ha-rabbit1", "ha-rabbit2", "ha-rabbit3"];
    private static readonly string[] Haproxy = ["ha-haproxy1", "ha-haproxy2"];

    private static string RepositoryFile(string path) => System.IO.Path.Combine(Repository.Root, path);

    private static YamlMappingNode Patroni()
    {
        var yaml = new YamlStream();
        using var reader = new StringReader(File.ReadAllText(RepositoryFile("deploy/patroni/patroni.yml")));
        yaml.Load(reader);
        return (YamlMappingNode)yaml.Documents[0].RootNode;
    }

    private static string? PatroniSetting(params string[] path) => (Child(Patroni(), path) as YamlScalarNode)?.Value;

    private static string Host(string hostPort) => hostPort[..hostPort.LastIndexOf(':')];

    private static string Port(string hostPort) => hostPort[(hostPort.LastIndexOf(':') + 1)..];

    [Fact]
    public void The_ha_profile_has_three_etcd_three_postgres_three_rabbitmq_and_two_haproxy_nodes_beside_the_apps()
    {
        string[] expected = [.. Etcd, .. Postgres, .. Rabbit, .. Haproxy, "ha-migrate", "ha-api", "ha-scheduler", "ha-tls"];
        Assert.Equal(expected.Order(StringComparer.Ordinal), InProfile("ha"));
        Assert.All(Services.Keys.Where(s => s.StartsWith("ha-", StringComparison.Ordinal)), s => Assert.Equal(["ha"], Profiles(s)));
        Assert.Equal("3", Scalar("ha-api", "deploy", "replicas"));
        Assert.Equal("2", Scalar("ha-scheduler", "deploy", "replicas"));
    }

    [Fact]
    public void Every_dependency_is_a_service_of_the_file_and_of_the_same_profile()
    {
        foreach (var service in Services.Keys)
        {
            foreach (var (dependency, condition) in DependsOn(service))
            {
                Assert.True(Services.ContainsKey(dependency), $"{service} depends on {dependency}, which is not a service");
                Assert.Equal(Profiles(service), Profiles(dependency));
                Assert.Contains(condition, new[] { "service_started", "service_healthy", "service_completed_successfully" });
                if (condition == "service_healthy")
                {
                    Assert.True(Child(Services[dependency], "healthcheck", "test") is not null, $"{service} waits for {dependency} to be healthy, which has no healthcheck");
                }
            }
        }
    }

    [Fact]
    public void Start_order_is_etcd_then_postgres_then_haproxy_then_migrate_then_the_apps()
    {
        Assert.All(Postgres, pg => Assert.Equal(Etcd.Select(e => $"{e} service_healthy"), Waits(pg)));
        // And for its certificate (ha-tls), made once before either node starts.
        Assert.All(Haproxy, h => Assert.Equal([.. Postgres.Select(p => $"{p} service_healthy"), "ha-tls service_completed_successfully"], Waits(h)));
        Assert.All(Haproxy, h => Assert.Equal("service_started", DependsOn("ha-migrate")[h]));
        foreach (var app in new[] { "ha-api", "ha-scheduler" })
        {
            Assert.Equal("service_completed_successfully", DependsOn(app)["ha-migrate"]);
            Assert.All(Rabbit, r => Assert.Equal("service_healthy", DependsOn(app)[r]));
        }
        // HAProxy must not wait for the APIs: they reach PostgreSQL through it.
        Assert.All(Haproxy, h => Assert.DoesNotContain("ha-api", DependsOn(h).Keys));
        Assert.All(new[] { "ha-rabbit2", "ha-rabbit3" }, r => Assert.Equal("service_healthy", DependsOn(r)["ha-rabbit1"]));
    }

    [Fact]
    public void The_three_postgres_nodes_have_distinct_names_addresses_and_volumes_and_one_image_from_deploy_patroni()
    {
        var names = Postgres.Select(pg => Environment(pg)["PATRONI_NAME"]).ToList();
        Assert.Equal(["pg1", "pg2", "pg3"], names);
        Assert.Equal(3, Postgres.Select(pg => Scalar(pg, "networks", "default", "ipv4_address")).Distinct().Count());
        Assert.Equal(3, Postgres.Select(pg => List(pg, "volumes").Single()).Distinct().Count());
        foreach (var pg in Postgres)
        {
            var env = Environment(pg);
            Assert.Equal($"{pg}:8008", env["PATRONI_RESTAPI_CONNECT_ADDRESS"]);
            Assert.Equal($"{pg}:5432", env["PATRONI_POSTGRESQL_CONNECT_ADDRESS"]);
            Assert.Equal(string.Join(',', Etcd.Select(e => e + ":2379")), env["PATRONI_ETCD3_HOSTS"]);
            Assert.EndsWith(":/var/lib/postgresql/data", List(pg, "volumes").Single(), StringComparison.Ordinal);
            Assert.Equal("slots-patroni:local", Scalar(pg, "image"));
            Assert.Equal("deploy/patroni", Scalar(pg, "build", "context"));
            Assert.Equal("unless-stopped", Scalar(pg, "restart"));
        }
        var dockerfile = File.ReadAllText(RepositoryFile("deploy/patroni/Dockerfile"));
        Assert.All(new[] { "patroni", "postgresql-15", "python3-etcd", "python3-psycopg2", "curl" }, p => Assert.Matches($@"\s{Regex.Escape(p)}\s", dockerfile));
        Assert.Contains("COPY patroni.yml /etc/patroni/patroni.yml", dockerfile, StringComparison.Ordinal);
        Assert.Contains("/etc/patroni/patroni.yml", File.ReadAllText(RepositoryFile("deploy/patroni/entrypoint.sh")), StringComparison.Ordinal);
        Assert.Equal("/usr/local/bin/post-bootstrap.sh", PatroniSetting("bootstrap", "post_bootstrap"));
    }

    [Fact]
    public void Patroni_runs_in_synchronous_mode_with_the_timings_the_failover_was_measured_with()
    {
        var ttl = int.Parse(PatroniSetting("bootstrap", "dcs", "ttl")!, System.Globalization.CultureInfo.InvariantCulture);
        var loopWait = int.Parse(PatroniSetting("bootstrap", "dcs", "loop_wait")!, System.Globalization.CultureInfo.InvariantCulture);
        var retryTimeout = int.Parse(PatroniSetting("bootstrap", "dcs", "retry_timeout")!, System.Globalization.CultureInfo.InvariantCulture);
        Assert.Equal((9, 1, 4), (ttl, loopWait, retryTimeout));
        Assert.True(loopWait + 2 * retryTimeout <= ttl, "loop_wait + 2 × retry_timeout must not exceed ttl");
        Assert.Equal("true", PatroniSetting("bootstrap", "dcs", "synchronous_mode"));
        Assert.Equal("0", PatroniSetting("bootstrap", "dcs", "primary_start_timeout"));
        Assert.Equal("true", PatroniSetting("bootstrap", "dcs", "postgresql", "use_pg_rewind"));
        Assert.Equal("on", PatroniSetting("bootstrap", "dcs", "postgresql", "parameters", "wal_log_hints"));
        Assert.NotNull(Child(Patroni(), "etcd3"));
        Assert.Equal("0.0.0.0:8008", PatroniSetting("restapi", "listen"));
        Assert.Equal("0.0.0.0:5432", PatroniSetting("postgresql", "listen"));
    }

    [Fact]
    public void The_API_reaches_the_primary_through_both_haproxy_nodes_and_lists_every_RabbitMQ_node()
    {
        foreach (var app in new[] { "ha-migrate", "ha-api", "ha-scheduler" })
        {
            var env = Environment(app);
            Assert.Equal("Postgres", env["Slots__Storage__Provider"]);
            Assert.Equal("false", env["Slots__Storage__MigrateOnStart"]);

            var settings = env["ConnectionStrings__Slots"]!.Split(';', StringSplitOptions.RemoveEmptyEntries)
                .Select(p => p.Split('=', 2)).ToDictionary(p => p[0].Trim(), p => p[1].Trim(), StringComparer.OrdinalIgnoreCase);
            Assert.Equal("slots", settings["Database"]);
            var hosts = settings["Host"].Split(',');
            Assert.Equal(Haproxy, hosts.Select(Host));
            foreach (var (host, haproxy) in hosts.Zip(Haproxy))
            {
                Assert.Equal(Port(Environment(haproxy)["SLOTS_PG_BIND"]!), Port(host));
            }

            // Comma-separated amqp:// URIs, one per node (user and password are compose variables, so no Uri parse).
            var brokers = env["ConnectionStrings__" + core::Slots.Sms.SmsOptions.ConnectionStringName]!.Split(',');
            Assert.Equal(Rabbit.Select(r => $"{r}:5672"), brokers.Select(b => Broker().Match(b) is { Success: true } m ? m.Groups[1].Value : b));
        }
        Assert.Equal(["migrate"], List("migrate", "command"));
        Assert.Contains("Slots.Api.dll migrate", List("ha-migrate", "entrypoint")[^1], StringComparison.Ordinal);
        Assert.Equal("no", Scalar("ha-migrate", "restart"));
    }

    [Fact]
    public void HAProxy_sends_postgres_to_each_patroni_node_and_its_REST_API_and_meets_its_peer_at_the_fixed_addresses()
    {
        var patroniRestPort = Port(PatroniSetting("restapi", "listen")!);
        var config = File.ReadAllText(RepositoryFile("haproxy/haproxy.cfg"));
        for (var n = 0; n < Haproxy.Length; n++)
        {
            var node = Haproxy[n];
            var env = Environment(node);
            for (var i = 0; i < Postgres.Length; i++)
            {
                Assert.Equal(Scalar(Postgres[i], "networks", "default", "ipv4_address"), Host(env[$"SLOTS_PG_{i + 1}"]!));
                Assert.Equal(Port(PatroniSetting("postgresql", "listen")!), Port(env[$"SLOTS_PG_{i + 1}"]!));
                Assert.Equal(patroniRestPort, env[$"SLOTS_PG_CHECK_{i + 1}"]);
            }
            for (var i = 0; i < Haproxy.Length; i++)
            {
                Assert.Equal(Scalar(Haproxy[i], "networks", "default", "ipv4_address"), Host(env[$"SLOTS_PEER_{i + 1}"]!));
            }
            // Started as its peer name: the name haproxy.cfg's peers section gives this node's address.
            var command = List(node, "command");
            var name = command[command.ToList().IndexOf("-L") + 1];
            Assert.Equal($"haproxy{n + 1}", name);
            Assert.Matches($@"peer {name} ""\$\{{SLOTS_PEER_{n + 1}\}}""", config);
            Assert.Equal("ha-api:8080", env["SLOTS_API_SERVICE"]);
            Assert.Equal(Scalar("ha-api", "deploy", "replicas"), env["SLOTS_API_REPLICAS"]);
            Assert.Equal(["./haproxy/haproxy.cfg:/usr/local/etc/haproxy/haproxy.cfg:ro", "ha-tls:/usr/local/etc/haproxy/tls:ro"], List(node, "volumes"));
            // HTTPS with the certificate ha-tls made (scripts/tls.sh), once it has.
            Assert.Equal("*:8443", env["SLOTS_FRONT_BIND"]);
            Assert.Equal(ComposeFileTests.ContainerTlsFolder + "server.pem", env["SLOTS_TLS_CERT"]);
            Assert.Equal("service_completed_successfully", DependsOn(node)["ha-tls"]);
            Assert.EndsWith(":8443", List(node, "ports").Single(), StringComparison.Ordinal);
        }
        Assert.Equal(Haproxy.Select(h => Scalar(h, "networks", "default", "ipv4_address")),
            [Environment("ha-api")["Slots__TrustedProxies__0"], Environment("ha-api")["Slots__TrustedProxies__1"]]);
        Assert.Equal(2, Haproxy.Select(h => List(h, "ports").Single()).Distinct().Count());
        Assert.DoesNotContain(Haproxy.Select(h => List(h, "ports").Single().Split(':')[0]), p => List("haproxy", "ports").Any(d => d.StartsWith(p + ":", StringComparison.Ordinal)));
    }

    [Fact]
    public void Fixed_addresses_are_distinct_inside_the_subnet_and_outside_the_range_handed_out_to_the_rest()
    {
        var addresses = Services.Keys.Select(s => Scalar(s, "networks", "default", "ipv4_address")).OfType<string>().ToList();
        Assert.Equal(addresses.Count, addresses.Distinct().Count());
        Assert.All(addresses, a =>
        {
            Assert.StartsWith("172.28.0.", a, StringComparison.Ordinal);
            Assert.InRange(int.Parse(a.Split('.')[3], System.Globalization.CultureInfo.InvariantCulture), 2, 127);
        });
        Assert.Contains("ip_range: 172.28.0.128/25", File.ReadAllText(ComposeFile.Path), StringComparison.Ordinal);
    }

    [Fact]
    public void The_RabbitMQ_nodes_form_one_cluster_by_classic_config_with_one_cookie()
    {
        var conf = File.ReadAllText(RepositoryFile("deploy/rabbitmq/cluster.conf"));
        Assert.Contains("cluster_formation.peer_discovery_backend = classic_config", conf, StringComparison.Ordinal);
        for (var i = 0; i < Rabbit.Length; i++)
        {
            var node = Rabbit[i];
            Assert.Equal(node, Scalar(node, "hostname"));
            Assert.Contains($"cluster_formation.classic_config.nodes.{i + 1} = rabbit@{node}", conf, StringComparison.Ordinal);
            Assert.Equal("${SLOTS_ERLANG_COOKIE:-}", Environment(node)["SLOTS_ERLANG_COOKIE"]);
            var volumes = List(node, "volumes");
            Assert.Contains("./deploy/rabbitmq/cluster.conf:/etc/rabbitmq/conf.d/20-cluster.conf:ro", volumes);
            Assert.Contains("./deploy/rabbitmq/entrypoint.sh:/etc/slots/entrypoint.sh:ro", volumes);
            Assert.Contains($"{node}-data:/var/lib/rabbitmq", volumes);
            Assert.Equal(["sh", "/etc/slots/entrypoint.sh"], List(node, "entrypoint"));
        }
        Assert.Contains("exec docker-entrypoint.sh rabbitmq-server", File.ReadAllText(RepositoryFile("deploy/rabbitmq/entrypoint.sh")), StringComparison.Ordinal);
    }

    [Fact]
    public void The_ha_profile_asks_a_plain_compose_up_for_no_variable_it_did_not_already_need()
    {
        // Compose interpolates the whole file before it picks services, so a ${NAME:?} in an ha service
        // would stop a plain `docker compose up` that never starts it.
        var required = (IEnumerable<string> services) => services.SelectMany(s => Scalars(Services[s]))
            .SelectMany(v => RequiredVariable().Matches(v)).Select(m => m.Groups[1].Value).ToHashSet();
        Assert.Subset(required(InProfile(null)), required(InProfile("ha")));
    }

    [Fact]
    public void Every_named_volume_of_the_ha_profile_is_declared()
    {
        var text = File.ReadAllText(ComposeFile.Path);
        var declared = text[text.LastIndexOf("\nvolumes:\n", StringComparison.Ordinal)..];
        foreach (var service in InProfile("ha"))
        {
            foreach (var volume in List(service, "volumes").Where(v => !v.StartsWith('.')))
            {
                Assert.Contains($"\n  {volume.Split(':')[0]}:", declared, StringComparison.Ordinal);
            }
        }
    }

    [Fact]
    public async Task A_patroni_node_without_its_passwords_refuses_to_start()
    {
        var error = await Assert.ThrowsAsync<InvalidOperationException>(() => Tool.RunAsync("sh", [RepositoryFile("deploy/patroni/entrypoint.sh")], TimeSpan.FromSeconds(10), start =>
        {
            start.Environment["PATRONI_NAME"] = "pg1";
            start.Environment.Remove("PATRONI_SUPERUSER_PASSWORD");
        }));
        Assert.Contains("PATRONI_SUPERUSER_PASSWORD is not set", error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task HAProxy_accepts_its_config_without_a_warning_with_each_ha_node_environment()
    {
        var binary = HaproxyServer.Binary();
        if (binary is null)
        {
            Unavailable.SkipOrFail("haproxy is not installed (./slots test installs it): `haproxy -c` was not run");
        }
        // What ha-tls leaves in its volume, made here by the same script, where the container has it.
        var tls = Directory.CreateTempSubdirectory("slots-compose-tls-");
        try
        {
            await HaproxyServer.TlsScriptAsync(["local", tls.FullName]);
            foreach (var node in Haproxy)
            {
                var command = List(node, "command");
                // -dW: a warning fails the check (a peer name not in the peers section only warns).
                var output = await Tool.RunAsync(binary, ["-dW", "-c", .. command.Select(a => a.Replace("/usr/local/etc/haproxy/", RepositoryFile("haproxy/"), StringComparison.Ordinal))],
                    TimeSpan.FromSeconds(30), start =>
                    {
                        foreach (var (name, value) in Environment(node))
                        {
                            start.Environment[name] = value?.Replace(ComposeFileTests.ContainerTlsFolder, tls.FullName + "/", StringComparison.Ordinal);
                        }
                    });
                Assert.Contains("Configuration file is valid", output, StringComparison.Ordinal);
            }
        }
        finally
        {
            tls.Delete(recursive: true);
        }
    }

    private static IEnumerable<string> Waits(string service) =>
        DependsOn(service).Select(d => $"{d.Key} {d.Value}").Order(StringComparer.Ordinal);

    [GeneratedRegex(@"\$\{([A-Z0-9_]+):\?")]
    private static partial Regex RequiredVariable();

    [GeneratedRegex(@"^amqp://[^@/]+@([^@/:]+:[0-9]+)/$")]
    private static partial Regex Broker();
}
