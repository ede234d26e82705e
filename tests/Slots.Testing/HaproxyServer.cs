using System.Diagnostics;
using System.Globalization;

namespace Slots.Testing;

/// <summary>
/// HAProxy with the repository's own haproxy/haproxy.cfg, on free loopback ports, in front of the
/// given API instances; limits the test wants lower come in as the config's environment variables
/// (SLOTS_RATE_WRITES, SLOTS_SERVER_MAXCONN, ...).
/// </summary>
public sealed class HaproxyServer : IAsyncDisposable
{
    private readonly ChildProcess _process;

    private HaproxyServer(ChildProcess process, int frontPort, int statsPort)
    {
        _process = process;
        FrontPort = frontPort;
        StatsPort = statsPort;
    }

    public int FrontPort { get; }

    public int StatsPort { get; }

    public Uri FrontAddress => new($"http://127.0.0.1:{FrontPort}");

    public static string ConfigPath => Path.Combine(Repository.Root, "haproxy", "haproxy.cfg");

    /// <summary>The haproxy binary, or null when it is not installed (the tests that need it skip then).</summary>
    public static string? Binary() =>
        new[] { "/usr/sbin/haproxy", "/usr/local/sbin/haproxy" }
            .Concat((Environment.GetEnvironmentVariable("PATH") ?? "").Split(Path.PathSeparator).Where(d => d.Length > 0).Select(d => Path.Combine(d, "haproxy")))
            .FirstOrDefault(File.Exists);

    /// <summary>Starts HAProxy in front of <paramref name="servers"/> (host:port) and waits until every server is UP.</summary>
    public static async Task<HaproxyServer> StartAsync(IReadOnlyList<string> servers, IReadOnlyDictionary<string, string> settings, string logFolder, CancellationToken ct)
    {
        var binary = Binary() ?? throw new InvalidOperationException("haproxy is not installed (apt-get install haproxy; ./slots test does it).");
        var front = ChildProcess.FreePort();
        var stats = ChildProcess.FreePort();
        var environment = new Dictionary<string, string>
        {
            ["SLOTS_FRONT_BIND"] = $"127.0.0.1:{front}",
            ["SLOTS_STATS_BIND"] = $"127.0.0.1:{stats}",
        };
        for (var i = 0; i < servers.Count; i++)
        {
            environment[$"SLOTS_API_{i + 1}"] = servers[i];
        }
        foreach (var (key, value) in settings)
        {
            environment[key] = value;
        }
        var process = ChildProcess.Start(binary, ["-f", ConfigPath], environment, Path.Combine(logFolder, "haproxy.log"));
        var haproxy = new HaproxyServer(process, front, stats);
        try
        {
            await haproxy.WaitAsync(s => s.Count == servers.Count && s.Values.All(v => v.Status == "UP"), TimeSpan.FromSeconds(30), ct);
        }
        catch
        {
            await haproxy.DisposeAsync();
            throw;
        }
        return haproxy;
    }

    /// <summary>Each API server's state as the stats page reports it: UP/DOWN and the sessions it has been sent.</summary>
    public async Task<IReadOnlyDictionary<string, ServerState>> ServersAsync(CancellationToken ct)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        var csv = await http.GetStringAsync($"http://127.0.0.1:{StatsPort}/stats;csv", ct);
        var lines = csv.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var header = lines[0].TrimStart('#', ' ').Split(',');
        int Column(string name) => Array.IndexOf(header, name);
        var result = new Dictionary<string, ServerState>();
        foreach (var line in lines.Skip(1))
        {
            var f = line.Split(',');
            if (f[Column("pxname")] == "api" && f[Column("svname")] is not ("BACKEND" or "FRONTEND"))
            {
                // "UP 1/2" while a server is going down counts as up: it still gets traffic.
                var status = f[Column("status")].Split(' ')[0];
                result[f[Column("svname")]] = new ServerState(status, long.Parse(f[Column("stot")], CultureInfo.InvariantCulture));
            }
        }
        return result;
    }

    /// <summary>Polls the stats page every 50 ms until <paramref name="condition"/> holds; returns how long that took.</summary>
    public async Task<TimeSpan> WaitAsync(Func<IReadOnlyDictionary<string, ServerState>, bool> condition, TimeSpan limit, CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        while (true)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"haproxy exited:\n{_process.Tail()}");
            }
            try
            {
                if (condition(await ServersAsync(ct)))
                {
                    return clock.Elapsed;
                }
            }
            catch (HttpRequestException)
            {
            }
            catch (TaskCanceledException) when (!ct.IsCancellationRequested)
            {
            }
            if (clock.Elapsed > limit)
            {
                throw new TimeoutException($"HAProxy's servers did not reach the expected state in {limit.TotalSeconds} s:\n{_process.Tail()}");
            }
            await Task.Delay(50, ct);
        }
    }

    public string LogTail() => _process.Tail();

    public ValueTask DisposeAsync() => _process.DisposeAsync();
}

public sealed record ServerState(string Status, long Sessions);
