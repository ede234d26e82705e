using System.Net.Sockets;

namespace Slots.Topology.Run;

/// <summary>Whether a node of a described stack is healthy now, one look each (the waiter polls). Every probe
/// answers false, never throws, for a part that is not (yet) there.</summary>
public sealed class Probes(Topology topology, HttpClient http)
{
    public static HttpClient NewClient() => new() { Timeout = TimeSpan.FromSeconds(2) };

    public async Task<bool> ReadyAsync(Node node, CancellationToken ct) => node.Ready switch
    {
        Health.Http h => await GetTextAsync(http, h.Url, ct) is not null,
        Health.Tcp t => await TcpAsync(t.Port, ct),
        Health.PostgresAccepts p => (await Tool.TryRunAsync("pg_isready", ["-q", "-h", "127.0.0.1", "-p", $"{p.Port}"], TimeSpan.FromSeconds(10))).Code == 0,
        Health.EtcdHealthy e => (await GetTextAsync(http, new Uri($"http://127.0.0.1:{e.ClientPort}/health"), ct))?.Contains("\"health\":\"true\"", StringComparison.Ordinal) == true,
        Health.PatroniServes p => await GetTextAsync(http, new Uri($"http://127.0.0.1:{p.RestPort}/health"), ct) is not null,
        Health.PatroniSynced s => await PatroniCluster.ReadAsync(http, s.RestPorts, ct) is { } members && PatroniCluster.Synced(members),
        Health.RabbitRunning => await Rabbit.RunningAsync(node, EpmdAlive()),
        Health.RabbitCluster c => EpmdAlive() && await Rabbit.ClusterSizeAsync(RabbitNodes()) == c.Size,
        Health.HaproxyUp h => await HaproxyStats.ReadAsync(http, h.StatsPort, ct) is { } servers && HaproxyStats.Satisfies(servers, h),
        Health.Done => true,
        _ => false,
    };

    /// <summary>The body of a 2xx answer, or null for anything else (no answer, refused, 503, a timeout).</summary>
    public static async Task<string?> GetTextAsync(HttpClient http, Uri url, CancellationToken ct)
    {
        try
        {
            using var response = await http.GetAsync(url, ct);
            return response.IsSuccessStatusCode ? await response.Content.ReadAsStringAsync(ct) : null;
        }
        catch (HttpRequestException)
        {
            return null;
        }
        catch (TaskCanceledException) when (!ct.IsCancellationRequested)
        {
            return null;
        }
    }

    public static async Task<bool> TcpAsync(int port, CancellationToken ct)
    {
        using var client = new TcpClient();
        try
        {
            await client.ConnectAsync("127.0.0.1", port, ct);
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }

    private bool EpmdAlive() => ProcTree.AlivePid(Path.Combine(topology.Options.Pids, "epmd.pid")) is not null;

    private IEnumerable<Node> RabbitNodes() => topology.Nodes.Where(n => n.Kind == NodeKind.RabbitMq);
}
