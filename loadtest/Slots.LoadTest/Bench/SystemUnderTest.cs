using System.Globalization;

namespace Slots.LoadTest.Bench;

/// <summary>The per-client limits an API runs with: out of the way for the throughput runs, or as shipped for the stampedes.</summary>
internal enum Limits { Unlimited, Shipped }

/// <summary>
/// What the benchmark measures: its own database and API instances (<see cref="OwnApis"/>), the loopback stack behind
/// HAProxy (<see cref="StackUnderTest"/>), or a stack already up (<see cref="ExternalStack"/>); where the crowd goes, the
/// database the seeder and the audit use, and which processes' CPU each run reports.
/// </summary>
internal abstract class SystemUnderTest : IAsyncDisposable
{
    /// <summary>Where the crowd goes: one URL per instance or per HAProxy node, comma-separated.</summary>
    public string Target { get; protected set; } = "";

    public string Db { get; protected set; } = "";

    /// <summary>The generator's --watch-* options: CPU by process.</summary>
    public IReadOnlyList<string> Watch { get; protected set; } = [];

    /// <summary>Latency at the server: HAProxy's log where there is a proxy, else the instances' histograms.</summary>
    public IReadOnlyList<string> AtServer { get; protected set; } = ["--server-metrics", "true"];

    /// <summary>HAProxy's log, for the runs that read only that.</summary>
    public IReadOnlyList<string> ProxyLog { get; protected set; } = [];

    /// <summary>The URLs an admin write must reach: every instance where each is reachable, else the target's first.</summary>
    public virtual IReadOnlyList<string> AdminUrls => Target.Split(',');

    public string FirstUrl => Target.Split(',')[0];

    /// <summary>The first instance's watch only, where the others are idle meanwhile (a proxy's spread covers all).</summary>
    public virtual IReadOnlyList<string> OneApiWatch => Watch;

    /// <summary>Behind a proxy each instance's catalogue copy refreshes on its own (30 s), not at an admin write.</summary>
    public virtual bool BehindProxy => true;

    /// <summary>The staff sign-in's signing key the instances check tokens with, when known.</summary>
    public string? StaffKey { get; protected set; }

    /// <summary>The benchmark's own PostgreSQL, when it started one (the ceiling, its memory).</summary>
    public OwnPostgres? Postgres { get; protected set; }

    /// <summary>(Re)starts the APIs with <paramref name="limits"/>; <paramref name="firstOnly"/> settings go to the first instance.</summary>
    public abstract Task StartAsync(Limits limits, IReadOnlyDictionary<string, string> firstOnly, CancellationToken ct);

    public abstract ValueTask DisposeAsync();
}

/// <summary>A stack already up, pointed at by SLOTS_BENCH_TARGET and its companions: nothing started, nothing restarted.</summary>
internal sealed class ExternalStack : SystemUnderTest
{
    public ExternalStack(ExternalTarget external)
    {
        Target = external.Target;
        Db = external.Db;
        Watch = external.DbPid is null ? ["--watch-pids", external.Pids] : ["--watch-pids", external.Pids, "--watch-db-pid", external.DbPid];
        ProxyLog = external.ProxyLog is null ? [] : ["--proxy-log", external.ProxyLog];
        AtServer = ProxyLog;
        StaffKey = Environment.GetEnvironmentVariable("SLOTS_BENCH_STAFF_KEY") is { Length: > 0 } key ? key : null;
    }

    public override Task StartAsync(Limits limits, IReadOnlyDictionary<string, string> firstOnly, CancellationToken ct) => Task.CompletedTask;

    public override ValueTask DisposeAsync() => ValueTask.CompletedTask;
}

/// <summary>
/// The benchmark's own database (a PostgreSQL server of its own, or a SQLite file) and API instances on free ports,
/// configured as the stack configures them, with the staff key the site's day signs its staff in with.
/// </summary>
internal sealed class OwnApis(BenchHost host, BenchOptions options) : SystemUnderTest
{
    private readonly List<ApiInstance> _apis = [];
    private int _starts;

    public override IReadOnlyList<string> AdminUrls => [.. _apis.Select(a => a.Url)];

    public override IReadOnlyList<string> OneApiWatch => ["--watch-pids", _apis[0].Pid.ToString(CultureInfo.InvariantCulture)];

    public override bool BehindProxy => false;

    public async Task OpenAsync()
    {
        StaffKey = Convert.ToBase64String(System.Security.Cryptography.RandomNumberGenerator.GetBytes(32));
        if (options.Backend == "postgres")
        {
            var durability = options.Durable
                ? new[] { "fsync=on", "synchronous_commit=on" }
                : ["fsync=off", "synchronous_commit=off", "full_page_writes=off"];
            // 400 connections: the instances' pools (40 each), the scheduler's, the generator's audit and pgbench's clients.
            // Every autovacuum is logged with its CPU (server.log, kept with SLOTS_BENCH_KEEP=1): it runs beside the measured runs.
            Postgres = await OwnPostgres.StartAsync(host.Work, ["max_connections=400", "shared_buffers=512MB", "log_autovacuum_min_duration=0", .. durability],
                host.Split.Stack, options.HugePages);
            Db = Postgres.ConnectionString(";Maximum Pool Size=40;Timeout=5");
        }
        else
        {
            Db = $"Data Source={Path.Combine(host.Work, "slots.db")}";
        }
    }

    // Unlimited writes (the throughput runs) set the adaptive concurrency limit out of the way too: those runs measure each
    // path at a fixed number of users, and a 429 there would only put a user to sleep; the stampedes run with the shipped limit.
    public override async Task StartAsync(Limits limits, IReadOnlyDictionary<string, string> firstOnly, CancellationToken ct)
    {
        await StopApisAsync();
        var writes = limits == Limits.Unlimited ? 100_000_000 : 30; // shipped: 30 writes per 10 s per address
        var env = BenchSecrets.ApiEnvironment(options.Backend == "postgres" ? "Postgres" : "Sqlite", Db);
        env["Authentication__Schemes__Bearer__ValidIssuer"] = "slots-bench";
        env["Authentication__Schemes__Bearer__ValidAudiences__0"] = "slots-api";
        env["Authentication__Schemes__Bearer__SigningKeys__0__Issuer"] = "slots-bench";
        env["Authentication__Schemes__Bearer__SigningKeys__0__Value"] = StaffKey!;
        env["Slots__Benchmark__Baseline"] = "true";
        env["Slots__RateLimits__WritesPerWindow"] = writes.ToString(CultureInfo.InvariantCulture);
        env["Slots__RateLimits__ReadsPerWindow"] = (writes * 10L).ToString(CultureInfo.InvariantCulture);
        if (limits == Limits.Unlimited)
        {
            env["Slots__ConcurrencyLimit__MinLimit"] = env["Slots__ConcurrencyLimit__InitialLimit"] = env["Slots__ConcurrencyLimit__MaxLimit"] = "100000";
        }
        for (var i = 1; i <= options.Instances; i++)
        {
            var settings = i == 1 ? new Dictionary<string, string>(env.Concat(firstOnly)) : env;
            var log = Path.Combine(host.Work, $"api-{i}-{++_starts}.log");
            _apis.Add(await ApiInstance.StartAsync(host.ApiDll, log, settings, host.Split.Stack, ct));
        }
        Target = string.Join(',', _apis.Select(a => a.Url));
        var pids = string.Join(',', _apis.Select(a => a.Pid));
        Watch = Postgres is null ? ["--watch-pids", pids] : ["--watch-pids", pids, "--watch-db-pid", Postgres.Postmaster.ToString(CultureInfo.InvariantCulture)];
    }

    public override async ValueTask DisposeAsync()
    {
        await StopApisAsync();
        if (Postgres is not null)
        {
            await Postgres.DisposeAsync();
        }
    }

    private async Task StopApisAsync()
    {
        foreach (var api in _apis)
        {
            await api.DisposeAsync();
        }
        _apis.Clear();
    }
}
