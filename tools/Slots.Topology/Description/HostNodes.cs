using System.Globalization;

namespace Slots.Topology;

/// <summary>The nodes both shapes share: the API instances, the scheduler nodes, epmd, the local CA job.</summary>
internal static class HostNodes
{
    public static string Pivot(StackOptions options) => options.Configuration.ToLowerInvariant();

    /// <summary>API instance i; the content root is the project folder, where appsettings*.json and
    /// frontend/dist are found.</summary>
    public static Node Api(StackOptions options, int i, IReadOnlyList<Dependency> after)
    {
        var port = options.Ports.Api(i);
        var name = Name("api", i);
        return new Node(
            name,
            NodeKind.Api,
            new Command(
                "dotnet",
                ["exec", Path.Combine(options.Root, "artifacts", "bin", "Slots.Api", Pivot(options), "Slots.Api.dll")],
                AppEnvironment.Api(options, i),
                Path.Combine(options.Root, "api", "Slots.Api")),
            [new Port(name, port)],
            [],
            after,
            new Health.Http(Ready(port)),
            StopStyle.Term20Then9,
            new PidSource.PidFile());
    }

    public static Node Scheduler(StackOptions options, int n, IReadOnlyList<Dependency> after)
    {
        var port = options.Ports.Scheduler(n);
        var name = AppEnvironment.SchedulerName(n);
        return new Node(
            name,
            NodeKind.Scheduler,
            new Command(
                "dotnet",
                ["exec", Path.Combine(options.Root, "artifacts", "bin", "Slots.Scheduler", Pivot(options), "Slots.Scheduler.dll")],
                AppEnvironment.Scheduler(options, n),
                Path.Combine(options.Root, "scheduler", "Slots.Scheduler")),
            [new Port(name, port)],
            [],
            after,
            new Health.Http(Ready(port)),
            StopStyle.Term20Then9,
            new PidSource.PidFile());
    }

    /// <summary>The stack's own epmd in the foreground, so `down` stops it by PID (Erlang would otherwise leave
    /// a daemon behind).</summary>
    public static Node Epmd(StackOptions options) =>
        new(
            "epmd",
            NodeKind.Epmd,
            new Command("epmd", "-port", options.Ports.Epmd.ToString(CultureInfo.InvariantCulture), "-address", "127.0.0.1"),
            [new Port("epmd", options.Ports.Epmd)],
            [],
            [],
            new Health.Tcp(options.Ports.Epmd),
            StopStyle.Term20Then9,
            new PidSource.PidFile());

    /// <summary>The local CA's certificate for HAProxy (scripts/tls.sh: made once, kept while valid); absent when
    /// a certificate of one's own is configured.</summary>
    public static Node? Tls(StackOptions options) => options.TlsCert is not null
        ? null
        : new Node(
            "tls",
            NodeKind.Job,
            new Command(
                Path.Combine(options.Root, "scripts", "tls.sh"),
                ["local", options.Tls],
                [new("SLOTS_TLS_CRL_URL", $"http://{HaproxyEnvironment.Loopback(options.Ports.Redirect)}/slots-local-ca.crl")],
                options.Root),
            [],
            [],
            [],
            new Health.Done(),
            StopStyle.Nothing,
            new PidSource.None());

    /// <summary>HAProxy in master-worker mode (-W): the PID file names the master, which a reload (SIGUSR2) keeps.</summary>
    public static Command Haproxy(StackOptions options, string? localPeer, IReadOnlyList<KeyValuePair<string, string>> env)
    {
        string[] peer = localPeer is null ? [] : ["-L", localPeer];
        return new Command("haproxy", ["-W", .. peer, "-f", "haproxy/haproxy.cfg"], env, options.Root);
    }

    public static Dependency Healthy(string node) => new(node, Condition.Healthy);

    public static Dependency Completed(string node) => new(node, Condition.Completed);

    public static Dependency Started(string node) => new(node, Condition.Started);

    public static string Name(string prefix, int n) => string.Create(CultureInfo.InvariantCulture, $"{prefix}{n}");

    private static Uri Ready(int port) => new($"http://{HaproxyEnvironment.Loopback(port)}/health/ready");
}
