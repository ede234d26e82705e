extern alias core;

using Slots.Testing;
using YamlDotNet.RepresentationModel;

namespace Slots.Stack.Tests.Compose;

/// <summary>
/// docker-compose.yml read here as YAML for the wiring the stack depends on, and its HAProxy config
/// checked by `haproxy -c`. `docker compose config` is not run here: Debian 12 packages no compose v2
/// client (its docker-compose 1.29 rejects the file's top-level `name`), so a test of it could only
/// skip. The GitHub workflow's compose job (.github/workflows/ci.yml), where a compose client exists,
/// runs `docker compose --profile ha config --quiet` and brings the file up.
/// </summary>
public sealed class ComposeFileTests
{
    private static readonly string File = Path.Combine(Repository.Root, "docker-compose.yml");

    private static readonly YamlMappingNode Services = Load();

    private static YamlMappingNode Load()
    {
        var yaml = new YamlStream();
        using var reader = new StringReader(System.IO.File.ReadAllText(File));
        yaml.Load(reader);
        return (YamlMappingNode)((YamlMappingNode)yaml.Documents[0].RootNode)["services"];
    }

    private static YamlMappingNode Service(string name) => (YamlMappingNode)Services[name];

    private static string? Scalar(YamlNode node, params string[] path)
    {
        foreach (var key in path)
        {
            if (node is not YamlMappingNode map || !map.Children.TryGetValue(new YamlScalarNode(key), out var next))
            {
                return null;
            }
            node = next;
        }
        return (node as YamlScalarNode)?.Value;
    }

    /// <summary>A service's environment with YAML merge keys (&lt;&lt;: *anchor) applied, as compose applies them.</summary>
    private static Dictionary<string, string?> Environment(string service)
    {
        var env = new Dictionary<string, string?>();
        var node = (YamlMappingNode)Service(service)["environment"];
        foreach (var (key, value) in node.Children)
        {
            if (((YamlScalarNode)key).Value == "<<")
            {
                foreach (var (k, v) in ((YamlMappingNode)value).Children)
                {
                    env.TryAdd(((YamlScalarNode)k).Value!, ((YamlScalarNode)v).Value);
                }
                continue;
            }
            env[((YamlScalarNode)key).Value!] = ((YamlScalarNode)value).Value;
        }
        return env;
    }

    /// <summary>The repository path of the config the haproxy service mounts (its first volume's source).</summary>
    private static string HaproxyConfig() =>
        ((YamlScalarNode)((YamlSequenceNode)Service("haproxy")["volumes"]).Children[0]).Value!.Split(':')[0];

    private static string? Condition(string service, string dependency) => Scalar(Service(service), "depends_on", dependency, "condition");

    [Fact]
    public void The_stack_has_every_service_of_the_design()
    {
        // The services a plain `docker compose up` starts: those of no profile (ComposeHaProfileTests has the ha profile's).
        Assert.Equal(["api", "haproxy", "migrate", "rabbitmq", "scheduler", "sqlserver", "tls"], ComposeFile.InProfile(null));
        Assert.StartsWith("mcr.microsoft.com/mssql/server:2022", Scalar(Service("sqlserver"), "image"), StringComparison.Ordinal);
        Assert.Equal("${MSSQL_PID:-Developer}", Environment("sqlserver")["MSSQL_PID"]);
        Assert.Equal("3", Scalar(Service("api"), "deploy", "replicas"));
    }

    [Fact]
    public void Start_order_is_database_then_migrate_then_api_then_haproxy()
    {
        Assert.Equal("service_healthy", Condition("migrate", "sqlserver"));
        Assert.Equal("service_completed_successfully", Condition("api", "migrate"));
        Assert.Equal("service_completed_successfully", Condition("scheduler", "migrate"));
        Assert.Equal("service_healthy", Condition("api", "rabbitmq"));
        Assert.Equal("service_healthy", Condition("haproxy", "api"));
        Assert.All(new[] { "sqlserver", "rabbitmq", "api" }, s => Assert.NotNull(Scalar(Service(s), "healthcheck", "interval")));
    }

    [Fact]
    public void Every_process_runs_on_SQL_Server_and_only_the_migrate_service_changes_the_schema_or_makes_demo_data()
    {
        foreach (var service in new[] { "migrate", "api", "scheduler" })
        {
            var env = Environment(service);
            Assert.Equal("SqlServer", env["Slots__Storage__Provider"]);
            Assert.StartsWith("Server=sqlserver,1433;", env["ConnectionStrings__Slots"], StringComparison.Ordinal);
            Assert.Equal("false", env["Slots__Storage__MigrateOnStart"]);
        }
        Assert.Equal("migrate", Assert.Single(((YamlSequenceNode)Service("migrate")["command"]).Children).ToString());
        Assert.Equal("${SLOTS_DEMO_DATA:-true}", Environment("migrate")["Slots__DemoData__WhenEmpty"]);
        Assert.Equal("false", Environment("api")["Slots__DemoData__WhenEmpty"]);
        Assert.Equal("false", Environment("scheduler")["Slots__DemoData__WhenEmpty"]);
    }

    [Fact]
    public void HAProxy_is_the_one_trusted_proxy_and_knows_the_replica_count()
    {
        var address = Scalar(Service("haproxy"), "networks", "default", "ipv4_address");
        Assert.Equal(address, Environment("api")["Slots__TrustedProxies__0"]);
        Assert.Equal(Scalar(Service("api"), "deploy", "replicas"), Environment("haproxy")["SLOTS_API_REPLICAS"]);
        Assert.Equal("api:8080", Environment("haproxy")["SLOTS_API_SERVICE"]);
        var config = HaproxyConfig();
        Assert.True(System.IO.File.Exists(Path.Combine(Repository.Root, config)), config);
    }

    [Fact]
    public async Task HAProxy_accepts_its_config_with_the_compose_environment()
    {
        var binary = HaproxyServer.Binary();
        if (binary is null)
        {
            Unavailable.SkipOrFail("haproxy is not installed (./slots test installs it): `haproxy -c` was not run");
        }
        // What the tls service leaves in the volume, made here by the same script, where the container has it.
        var tls = Directory.CreateTempSubdirectory("slots-compose-tls-");
        try
        {
            await HaproxyServer.TlsScriptAsync(["local", tls.FullName]);
            var output = await Tool.RunAsync(binary, ["-c", "-f", Path.Combine(Repository.Root, HaproxyConfig())], TimeSpan.FromSeconds(30), start =>
            {
                foreach (var (name, value) in Environment("haproxy"))
                {
                    start.Environment[name] = value?.Replace(ContainerTlsFolder, tls.FullName + "/", StringComparison.Ordinal);
                }
            });
            Assert.Contains("Configuration file is valid", output, StringComparison.Ordinal);
        }
        finally
        {
            tls.Delete(recursive: true);
        }
    }

    /// <summary>Where the haproxy service mounts the tls volume.</summary>
    public const string ContainerTlsFolder = "/usr/local/etc/haproxy/tls/";

    [Fact]
    public void HAProxy_serves_HTTPS_with_the_certificate_the_tls_service_leaves_in_the_volume_and_plain_HTTP_redirects()
    {
        // The one-shot tls service runs scripts/tls.sh on the volume HAProxy reads, and HAProxy waits for it.
        Assert.Equal(["bash", "/etc/slots/tls.sh", "local", "/tls"], ComposeFile.List("tls", "entrypoint"));
        Assert.Equal(["./scripts/tls.sh:/etc/slots/tls.sh:ro", "tls:/tls"], ComposeFile.List("tls", "volumes"));
        Assert.True(System.IO.File.Exists(Path.Combine(Repository.Root, "scripts", "tls.sh")));
        Assert.Equal("no", ComposeFile.Scalar("tls", "restart"));
        Assert.Contains("tls:" + ContainerTlsFolder.TrimEnd('/') + ":ro", ComposeFile.List("haproxy", "volumes"));
        Assert.Equal("service_completed_successfully", Condition("haproxy", "tls"));
        var env = Environment("haproxy");
        Assert.Equal(ContainerTlsFolder + "server.pem", env["SLOTS_TLS_CERT"]);
        Assert.Equal(ContainerTlsFolder + "ca.crl", env["SLOTS_TLS_CRL"]);
        // HTTPS published on 8443 and named so by the redirect; plain HTTP on 8080 only redirects, and the
        // certificate's revocation list URL is where that listener is published.
        Assert.Equal("*:8443", env["SLOTS_FRONT_BIND"]);
        Assert.Equal("*:8080", env["SLOTS_REDIRECT_BIND"]);
        Assert.Equal("8443", env["SLOTS_HTTPS_PORT"]);
        Assert.Equal(["8443:8443", "8080:8080"], ComposeFile.List("haproxy", "ports"));
        Assert.Equal("http://localhost:8080/slots-local-ca.crl", ComposeFile.Environment("tls")["SLOTS_TLS_CRL_URL"]);
    }

    [Fact]
    public void The_services_name_RabbitMQ_by_the_connection_string_the_SMS_work_reads()
    {
        foreach (var service in new[] { "migrate", "api", "scheduler" })
        {
            Assert.StartsWith("amqp://", Environment(service)["ConnectionStrings__" + core::Slots.Sms.SmsOptions.ConnectionStringName], StringComparison.Ordinal);
        }
    }

    [Fact]
    public void Long_running_services_come_back_after_a_crash_and_the_one_shot_migrator_does_not()
    {
        Assert.All(new[] { "sqlserver", "rabbitmq", "api", "haproxy", "scheduler" },
            s => Assert.Equal("unless-stopped", Scalar(Service(s), "restart")));
        Assert.Equal("no", Scalar(Service("migrate"), "restart"));
    }

    [Fact]
    public void The_images_built_here_have_their_Dockerfiles()
    {
        foreach (var service in new[] { "migrate", "scheduler" })
        {
            var dockerfile = Scalar(Service(service), "build", "dockerfile")!;
            Assert.True(System.IO.File.Exists(Path.Combine(Repository.Root, dockerfile)), dockerfile);
        }
        Assert.Equal(Scalar(Service("migrate"), "image"), Scalar(Service("api"), "image"));
        // The API image serves the booking page: the SPA is built in it and its folder configured.
        var api = System.IO.File.ReadAllText(Path.Combine(Repository.Root, Scalar(Service("migrate"), "build", "dockerfile")!));
        Assert.Contains("RUN npm run build", api, StringComparison.Ordinal);
        Assert.Contains("COPY --from=frontend /frontend/dist ./frontend", api, StringComparison.Ordinal);
        Assert.Contains("Slots__Frontend__Root=/app/frontend", api, StringComparison.Ordinal);
    }
}
