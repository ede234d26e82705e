using System.Globalization;
using System.Security.Cryptography;

namespace Slots.Topology;

/// <summary>A RabbitMQ node of the stack's own: own name, ports, epmd, folders and cookie (HOME), so it never
/// meets another node on the machine.</summary>
public static class RabbitConfig
{
    public const string Server = "/usr/lib/rabbitmq/bin/rabbitmq-server";

    public const string SingleNode = "slots-stack@localhost";

    public static string HaNode(int n) => $"slots-ha-{n}@localhost";

    public static string SingleHome(StackOptions options) => Path.Combine(options.StateDir, "rabbitmq");

    public static string HaHome(StackOptions options) => Path.Combine(options.StateDir, "rabbitmq-ha");

    public static string HaFolder(StackOptions options, int n) => Path.Combine(HaHome(options), $"node{n}");

    /// <summary>The single stack's rabbitmq.conf.</summary>
    public static string RenderSingle(StackOptions options) => string.Create(CultureInfo.InvariantCulture, $"""
        listeners.tcp.default = 127.0.0.1:{options.Ports.Amqp}
        management.tcp.ip = 127.0.0.1
        management.tcp.port = {options.Ports.RabbitMgmt}

        """);

    /// <summary>HA node n's rabbitmq.conf. A blank node joins the first reachable one of the list at its first boot
    /// (rabbitmq1 starts alone first and forms the cluster); a restarted node rejoins from its own data. A node
    /// cut off alone pauses rather than take messages the majority never sees (pause_minority, as compose's
    /// deploy/rabbitmq/cluster.conf). Node 1 serves the management UI.</summary>
    public static string RenderHa(StackOptions options, int n)
    {
        var port = options.Ports.RabbitAmqp(n);
        var lines = new List<string>
        {
            $"listeners.tcp.default = 127.0.0.1:{port}",
            "cluster_formation.peer_discovery_backend = classic_config",
        };
        lines.AddRange(Enumerable.Range(1, 3).Select(m => $"cluster_formation.classic_config.nodes.{m} = {HaNode(m)}"));
        lines.Add("cluster_partition_handling = pause_minority");
        if (n == 1)
        {
            lines.Add("management.tcp.ip = 127.0.0.1");
            lines.Add(string.Create(CultureInfo.InvariantCulture, $"management.tcp.port = {port + 2}"));
        }

        return string.Join('\n', lines) + "\n";
    }

    public static string EnabledPlugins(bool management) => management ? "[rabbitmq_management].\n" : "[].\n";

    public static IReadOnlyList<KeyValuePair<string, string>> SingleEnvironment(StackOptions options)
    {
        var home = SingleHome(options);
        return
        [
            new("HOME", home),
            new("RABBITMQ_NODENAME", SingleNode),
            new("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1"),
            new("RABBITMQ_NODE_PORT", Text(options.Ports.Amqp)),
            new("RABBITMQ_DIST_PORT", Text(options.Ports.RabbitDist)),
            new("ERL_EPMD_PORT", Text(options.Ports.Epmd)),
            new("ERL_EPMD_ADDRESS", "127.0.0.1"),
            new("RABBITMQ_MNESIA_BASE", Path.Combine(home, "mnesia")),
            new("RABBITMQ_LOG_BASE", Path.Combine(options.Logs, "rabbitmq")),
            new("RABBITMQ_CONFIG_FILE", Path.Combine(home, "rabbitmq.conf")),
            new("RABBITMQ_ENABLED_PLUGINS_FILE", Path.Combine(home, "enabled_plugins")),
        ];
    }

    /// <summary>HA node n: its CLI gets distribution ports of its own (+3..+9), and an empty rabbitmq-env.conf so
    /// the package's /etc/rabbitmq one cannot name another node.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> HaEnvironment(StackOptions options, int n)
    {
        var home = HaHome(options);
        var dir = HaFolder(options, n);
        var port = options.Ports.RabbitAmqp(n);
        return
        [
            new("HOME", home),
            new("RABBITMQ_NODENAME", HaNode(n)),
            new("RABBITMQ_NODE_IP_ADDRESS", "127.0.0.1"),
            new("RABBITMQ_NODE_PORT", Text(port)),
            new("RABBITMQ_DIST_PORT", Text(port + 1)),
            new("ERL_EPMD_PORT", Text(options.Ports.Epmd)),
            new("ERL_EPMD_ADDRESS", "127.0.0.1"),
            new("RABBITMQ_CTL_DIST_PORT_MIN", Text(port + 3)),
            new("RABBITMQ_CTL_DIST_PORT_MAX", Text(port + 9)),
            new("RABBITMQ_CONF_ENV_FILE", Path.Combine(home, "empty.env")),
            new("RABBITMQ_MNESIA_BASE", Path.Combine(dir, "mnesia")),
            new("RABBITMQ_LOG_BASE", Path.Combine(options.Logs, $"rabbitmq{n}")),
            new("RABBITMQ_CONFIG_FILE", Path.Combine(dir, "rabbitmq.conf")),
            new("RABBITMQ_ENABLED_PLUGINS_FILE", Path.Combine(dir, "enabled_plugins")),
        ];
    }

    /// <summary>One cookie for the three nodes and their CLI, in the private HOME; kept once written.</summary>
    public static ConfigFile Cookie(StackOptions options) =>
        new(Path.Combine(HaHome(options), ".erlang.cookie"),
            Convert.ToHexStringLower(RandomNumberGenerator.GetBytes(10)),
            Mode: UnixFileMode.UserRead,
            KeepIfExists: true);

    private static string Text(int value) => value.ToString(CultureInfo.InvariantCulture);
}
