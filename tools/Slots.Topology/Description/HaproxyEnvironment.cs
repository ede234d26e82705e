using System.Globalization;

namespace Slots.Topology;

/// <summary>The variables haproxy/haproxy.cfg reads (the file is one for every place it runs; the description
/// renders its environment, never the file).</summary>
public static class HaproxyEnvironment
{
    /// <summary>The single stack's HAProxy.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> OfSingle(StackOptions options)
    {
        var ports = options.Ports;
        var env = new List<KeyValuePair<string, string>>
        {
            new("SLOTS_FRONT_BIND", Loopback(ports.Front)),
            new("SLOTS_STATS_BIND", Loopback(ports.Stats)),
        };
        AddTls(env, options, ports.Redirect, ports.Front);
        AddApis(env, options);
        return WithProxySettings(env, options);
    }

    /// <summary>HA node n: peers, runtime API and a PostgreSQL listener that routes to the Patroni primary.</summary>
    public static IReadOnlyList<KeyValuePair<string, string>> OfHaNode(StackOptions options, int n)
    {
        var ports = options.Ports;
        var env = new List<KeyValuePair<string, string>>
        {
            new("SLOTS_FRONT_BIND", Loopback(ports.HaproxyFront(n))),
            new("SLOTS_STATS_BIND", Loopback(ports.HaproxyStats(n))),
            new("SLOTS_PEER_1", Loopback(ports.Peer(1))),
            new("SLOTS_PEER_2", Loopback(ports.Peer(2))),
            new("SLOTS_ADMIN_SOCKET", $"ipv4@{Loopback(ports.Admin(n))}"),
            new("SLOTS_PG_BIND", Loopback(ports.HaproxyPostgres(n))),
        };

        // One certificate for both nodes; its revocation list is published by each node's plain listener.
        AddTls(env, options, ports.HaproxyRedirect(n), ports.HaproxyFront(n));
        AddApis(env, options);
        for (var i = 1; i <= options.PgNodes; i++)
        {
            env.Add(new($"SLOTS_PG_{i}", Loopback(ports.PgNode(i))));
            env.Add(new($"SLOTS_PG_CHECK_{i}", ports.Patroni(i).ToString(CultureInfo.InvariantCulture)));
        }

        return WithProxySettings(env, options);
    }

    private static void AddTls(List<KeyValuePair<string, string>> env, StackOptions options, int redirect, int https)
    {
        env.Add(new("SLOTS_TLS_CERT", options.ServedCert));
        env.Add(new("SLOTS_REDIRECT_BIND", Loopback(redirect)));
        env.Add(new("SLOTS_HTTPS_PORT", https.ToString(CultureInfo.InvariantCulture)));
        if (options.TlsCert is null)
        {
            env.Add(new("SLOTS_TLS_CRL", Path.Combine(options.Tls, "ca.crl")));
        }
    }

    private static void AddApis(List<KeyValuePair<string, string>> env, StackOptions options)
    {
        for (var i = 1; i <= options.Apis; i++)
        {
            env.Add(new($"SLOTS_API_{i}", Loopback(options.Ports.Api(i))));
            env.Add(new($"SLOTS_API_{i}_AGENT", options.Ports.ApiAgent(i).ToString(CultureInfo.InvariantCulture)));
        }
    }

    private static List<KeyValuePair<string, string>> WithProxySettings(List<KeyValuePair<string, string>> env, StackOptions options)
    {
        env.AddRange(options.ProxySettings.OrderBy(p => p.Key, StringComparer.Ordinal));
        return env;
    }

    internal static string Loopback(int port) => string.Create(CultureInfo.InvariantCulture, $"127.0.0.1:{port}");
}
