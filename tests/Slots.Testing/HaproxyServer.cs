using System.Diagnostics;
using System.Globalization;
using System.Net.Security;
using System.Security.Cryptography.X509Certificates;

namespace Slots.Testing;

/// <summary>
/// HAProxy with the repository's own haproxy/haproxy.cfg, on free loopback ports, in front of the
/// given API instances; limits the test wants lower come in as the config's environment variables
/// (SLOTS_RATE_WRITES, SLOTS_SERVER_MAXCONN, ...). It serves HTTPS with a certificate of a local CA
/// that scripts/tls.sh makes for it, as `./slots stack up` does, runs in master-worker mode (-W) as
/// the stack does, and redirects plain HTTP on <see cref="RedirectPort"/>.
/// </summary>
public sealed class HaproxyServer : IAsyncDisposable
{
    private readonly ChildProcess _process;

    private HaproxyServer(ChildProcess process, int frontPort, int statsPort, int redirectPort, string tlsFolder)
    {
        _process = process;
        FrontPort = frontPort;
        StatsPort = statsPort;
        RedirectPort = redirectPort;
        TlsFolder = tlsFolder;
        Ca = X509Certificate2.CreateFromPem(File.ReadAllText(CaPath));
    }

    public int FrontPort { get; }

    public int StatsPort { get; }

    /// <summary>The plain-HTTP listener: it only redirects to HTTPS and serves the local CA's revocation list.</summary>
    public int RedirectPort { get; }

    /// <summary>ca.crt, ca.key and server.pem (what HAProxy serves), as scripts/tls.sh writes them.</summary>
    public string TlsFolder { get; }

    public string CaPath => Path.Combine(TlsFolder, "ca.crt");

    public string CertificatePath => Path.Combine(TlsFolder, "server.pem");

    /// <summary>The local CA that issued the served certificate: the one root a client of these tests trusts.</summary>
    public X509Certificate2 Ca { get; }

    /// <summary>HAProxy's master process (master-worker mode): SIGUSR2 to it reloads the config and the certificate.</summary>
    public int MasterId => _process.Id;

    public Uri FrontAddress => new($"https://127.0.0.1:{FrontPort}");

    /// <summary>
    /// A handler that trusts <see cref="Ca"/> and nothing else, and still checks the name and dates:
    /// the certificate is verified as a browser would verify a real one, not waved through.
    /// </summary>
    public SocketsHttpHandler TrustingHandler() => Trusting(new SocketsHttpHandler(), Ca);

    /// <summary>
    /// A handler that trusts the local CA ./slots stack made in its state folder (<paramref name="stackState"/>/tls)
    /// and nothing else: the stack's own front, checked as <see cref="TrustingHandler"/> checks a fixture's.
    /// </summary>
    public static SocketsHttpHandler TrustingStackCa(string stackState) =>
        Trusting(new SocketsHttpHandler(), X509Certificate2.CreateFromPem(File.ReadAllText(Path.Combine(stackState, "tls", "ca.crt"))));

    /// <summary>Makes <paramref name="handler"/> trust <paramref name="ca"/> as its only root.</summary>
    public static SocketsHttpHandler Trusting(SocketsHttpHandler handler, X509Certificate2 ca)
    {
        handler.SslOptions = new SslClientAuthenticationOptions { CertificateChainPolicy = ChainPolicy(ca) };
        return handler;
    }

    /// <summary>Certificates chaining to <paramref name="ca"/> are trusted, no others; the name and dates are checked as always.</summary>
    public static X509ChainPolicy ChainPolicy(X509Certificate2 ca) => new()
    {
        TrustMode = X509ChainTrustMode.CustomRootTrust,
        CustomTrustStore = { ca },
        // Its revocation list is served by the HAProxy under test itself (scripts/tls.sh); fetching it
        // on every handshake of a 249-client burst would test the CRL, not the stack.
        RevocationMode = X509RevocationMode.NoCheck,
    };

    /// <summary>Runs scripts/tls.sh with <paramref name="arguments"/> (local, renew, serial, served) and returns what it printed.</summary>
    public static Task<string> TlsScriptAsync(IReadOnlyList<string> arguments, IReadOnlyDictionary<string, string>? environment = null) =>
        Tool.RunAsync("bash", [Path.Combine(Repository.Root, "scripts", "tls.sh"), .. arguments], TimeSpan.FromSeconds(60), start =>
        {
            foreach (var (key, value) in environment ?? new Dictionary<string, string>())
            {
                start.Environment[key] = value;
            }
        });

    /// <summary>Reloads HAProxy as `./slots stack reload-cert` does: SIGUSR2 to the master, which starts new workers and lets the old finish.</summary>
    public async Task ReloadAsync()
    {
        using var signal = Process.Start("kill", ["-USR2", MasterId.ToString(CultureInfo.InvariantCulture)]);
        await signal.WaitForExitAsync();
        if (signal.ExitCode != 0)
        {
            throw new InvalidOperationException($"kill -USR2 {MasterId} failed:\n{_process.Tail()}");
        }
    }

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
        var redirect = ChildProcess.FreePort();
        var tls = Path.Combine(logFolder, "tls");
        await TlsScriptAsync(["local", tls], new Dictionary<string, string>
        {
            ["SLOTS_TLS_CRL_URL"] = $"http://127.0.0.1:{redirect}/slots-local-ca.crl",
        });
        var environment = new Dictionary<string, string>
        {
            ["SLOTS_FRONT_BIND"] = $"127.0.0.1:{front}",
            ["SLOTS_STATS_BIND"] = $"127.0.0.1:{stats}",
            ["SLOTS_TLS_CERT"] = Path.Combine(tls, "server.pem"),
            ["SLOTS_TLS_CRL"] = Path.Combine(tls, "ca.crl"),
            ["SLOTS_REDIRECT_BIND"] = $"127.0.0.1:{redirect}",
            ["SLOTS_HTTPS_PORT"] = front.ToString(CultureInfo.InvariantCulture),
        };
        for (var i = 0; i < servers.Count; i++)
        {
            environment[$"SLOTS_API_{i + 1}"] = servers[i];
        }
        foreach (var (key, value) in settings)
        {
            environment[key] = value;
        }
        var process = ChildProcess.Start(binary, ["-W", "-f", ConfigPath], environment, Path.Combine(logFolder, "haproxy.log"));
        var haproxy = new HaproxyServer(process, front, stats, redirect, tls);
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
        var (rows, Column) = await StatsAsync(ct);
        var result = new Dictionary<string, ServerState>();
        foreach (var f in rows)
        {
            if (f[Column("pxname")] == "api" && f[Column("svname")] is not ("BACKEND" or "FRONTEND"))
            {
                // "UP 1/2" while a server is going down counts as up: it still gets traffic.
                var status = f[Column("status")].Split(' ')[0];
                result[f[Column("svname")]] = new ServerState(status, long.Parse(f[Column("stot")], CultureInfo.InvariantCulture),
                    long.TryParse(f[Column("slim")], CultureInfo.InvariantCulture, out var limit) ? limit : null);
            }
        }
        return result;
    }

    /// <summary>How many requests wait in backend api's queues now, its own and its servers' (the stats page's qcur), as queue(api) counts them.</summary>
    public async Task<long> QueuedAsync(CancellationToken ct)
    {
        var (rows, Column) = await StatsAsync(ct);
        return rows.Where(f => f[Column("pxname")] == "api" && f[Column("svname")] != "FRONTEND")
            .Sum(f => long.TryParse(f[Column("qcur")], CultureInfo.InvariantCulture, out var n) ? n : 0);
    }

    private async Task<(IReadOnlyList<string[]> Rows, Func<string, int> Column)> StatsAsync(CancellationToken ct)
    {
        using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(5) };
        var csv = await http.GetStringAsync($"http://127.0.0.1:{StatsPort}/stats;csv", ct);
        var lines = csv.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        var header = lines[0].TrimStart('#', ' ').Split(',');
        return ([.. lines.Skip(1).Select(l => l.Split(','))], name => Array.IndexOf(header, name));
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

/// <param name="Limit">The server's maxconn now (the stats page's slim): configured, or the last its agent reported; null: none.</param>
public sealed record ServerState(string Status, long Sessions, long? Limit = null);
