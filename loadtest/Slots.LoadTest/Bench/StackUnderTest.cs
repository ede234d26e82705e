using System.Globalization;
using Slots.Topology;
using LoopbackStack = Slots.Topology.Run.Stack;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The whole stack of ./slots stack (HAProxy in front, over HTTPS with the stack's local CA), or its high-availability
/// form, on free ports and a state folder of its own, stopped at the end. Its processes inherit this process's
/// environment: the benchmark endpoints on, no demo data, and the limits asked for (HAProxy's and the API's).
/// </summary>
internal sealed class StackUnderTest(BenchHost host, BenchOptions options) : SystemUnderTest
{
    private static readonly string[] UnlimitedSettings =
    [
        "SLOTS_RATE_WRITES", "SLOTS_RATE_READS", "Slots__RateLimits__WritesPerWindow", "Slots__RateLimits__ReadsPerWindow",
        "Slots__ConcurrencyLimit__MinLimit", "Slots__ConcurrencyLimit__InitialLimit", "Slots__ConcurrencyLimit__MaxLimit",
    ];

    private bool _up;

    private string Folder => Path.Combine(host.Work, "stack");

    public void Open()
    {
        var set = new Dictionary<string, string>
        {
            ["SLOTS_STACK_DIR"] = Folder,
            ["ASPNETCORE_ENVIRONMENT"] = "Production",
            ["Slots__Benchmark__Baseline"] = "true",
            // The generator trusts the stack's local CA for HTTPS; wrk (the calibration) cannot verify a certificate at all.
            ["SLOTS_TLS_CA"] = Path.Combine(Folder, "tls", "ca.crt"),
            ["SLOTS_API_COUNT"] = options.Instances.ToString(CultureInfo.InvariantCulture),
        };
        foreach (var (key, value) in BenchSecrets.ApiEnvironment("Postgres", ""))
        {
            if (key is not ("Slots__Storage__Provider" or "ConnectionStrings__Slots"))
            {
                set[key] = value;
            }
        }
        foreach (var port in (string[])["SLOTS_REDIRECT_PORT", "SLOTS_FRONT_PORT", "SLOTS_STATS_PORT", "SLOTS_PG_PORT", "SLOTS_API_FIRST_PORT",
            "SLOTS_AMQP_PORT", "SLOTS_RABBIT_DIST_PORT", "SLOTS_RABBIT_MGMT_PORT", "SLOTS_EPMD_PORT", "SLOTS_SCHEDULER_PORT"])
        {
            set[port] = BenchHost.FreePort().ToString(CultureInfo.InvariantCulture);
        }
        if (options.Ha)
        {
            // Every port of the high-availability stack its own: free ones, and fixed ranges apart from ./slots stack's and the chaos soak's.
            set["SLOTS_STACK_HA"] = "1";
            foreach (var port in (string[])["SLOTS_FRONT2_PORT", "SLOTS_STATS2_PORT", "SLOTS_PG2_PORT", "SLOTS_REDIRECT2_PORT"])
            {
                set[port] = BenchHost.FreePort().ToString(CultureInfo.InvariantCulture);
            }
            set["SLOTS_HAPROXY_ADMIN_FIRST_PORT"] = "27090";
            set["SLOTS_ETCD_FIRST_PORT"] = "27000";
            set["SLOTS_PG_NODE_FIRST_PORT"] = "27041";
            set["SLOTS_PATRONI_FIRST_PORT"] = "27051";
            set["SLOTS_RABBIT_FIRST_PORT"] = "27100";
            set["SLOTS_PEER_FIRST_PORT"] = "27095";
        }
        foreach (var (key, value) in set)
        {
            Environment.SetEnvironmentVariable(key, value);
        }
        var front = Environment.GetEnvironmentVariable("SLOTS_FRONT_PORT");
        // The crowd through both HAProxy nodes of the HA stack; the tools reach the primary through haproxy1's PostgreSQL listener.
        Target = options.Ha ? $"https://127.0.0.1:{front},https://127.0.0.1:{set["SLOTS_FRONT2_PORT"]}" : $"https://127.0.0.1:{front}";
        Db = $"Host=127.0.0.1;Port={set["SLOTS_PG_PORT"]};Database=slots;Username=postgres;Timeout=5";
        var proxy = options.Ha ? "haproxy1" : "haproxy";
        ProxyLog = ["--proxy-log", Path.Combine(Folder, "logs", $"{proxy}.log")];
        AtServer = ProxyLog;
        // The stack's instances check staff tokens against their own key: the site's day signs in with the admin key unless told it.
        StaffKey = Environment.GetEnvironmentVariable("SLOTS_BENCH_STAFF_KEY") is { Length: > 0 } staffKey ? staffKey : null;
    }

    public override async Task StartAsync(Limits limits, IReadOnlyDictionary<string, string> firstOnly, CancellationToken ct)
    {
        if (_up)
        {
            await DownAsync(ct);
        }
        foreach (var key in UnlimitedSettings)
        {
            var value = key.Contains("Concurrency", StringComparison.Ordinal) ? "100000" : "100000000";
            Environment.SetEnvironmentVariable(key, limits == Limits.Unlimited ? value : null);
        }
        var log = Path.Combine(host.Work, "stack.log");
        var code = await host.RunAsync([.. host.Split.Stack, "./slots", "stack", "up", .. options.Ha ? ["--ha"] : Array.Empty<string>()], ct, log);
        _up = true;
        if (code != 0)
        {
            throw new InvalidOperationException($"./slots stack up failed:\n{string.Join('\n', File.ReadLines(log).TakeLast(30))}");
        }
        using var stack = await LoopbackStack.OpenAsync(Topology.Run.StateFolder.Resolve(StackOptions.FromProcessEnvironment(host.Root)), _ => { });
        var database = await stack.PidsAsync(options.Ha ? "primary-postgres" : "postgres", ct) is { Count: > 0 } postgres
            ? postgres[0]
            : throw new InvalidOperationException("The stack's PostgreSQL has no running postmaster.");
        var apis = Directory.GetFiles(Path.Combine(Folder, "pids"), "api*.pid").Select(f => File.ReadAllText(f).Trim());
        var proxy = File.ReadAllText(Path.Combine(Folder, "pids", options.Ha ? "haproxy1.pid" : "haproxy.pid")).Trim();
        // CPU by process: the primary's postgres (its standbys' share is in the machine's total), the first HAProxy.
        Watch = ["--watch-pids", string.Join(',', apis), "--watch-db-pid", database.ToString(CultureInfo.InvariantCulture), "--watch-proxy-pid", proxy];
    }

    public override async ValueTask DisposeAsync()
    {
        if (_up)
        {
            await DownAsync(CancellationToken.None);
        }
    }

    private async Task DownAsync(CancellationToken ct)
    {
        await host.RunAsync(["./slots", "stack", "down"], ct, Path.Combine(host.Work, "stack-down.log"));
        _up = false;
    }
}
