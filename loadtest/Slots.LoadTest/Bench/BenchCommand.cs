using System.Globalization;
using System.Text.Json.Nodes;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The benchmark in one command (./slots bench, which builds in Release first): start what it needs, seed the scale data,
/// run no-op, baseline and real path under the same load one after the other (each booking scenario on the seeded supply
/// again), the eligibility and pair variants, the ceiling, then the stampedes (plain, sold out, through a waiting room),
/// the availability probes, a vaccine finder, the site's day and the waiting list; write loadtest/results/NAME/*.json and
/// summary.md, and stop everything it started.
/// </summary>
internal sealed partial class BenchCommand(BenchHost host, BenchOptions options, SystemUnderTest system, string results, TimeSpan started)
{
    public static async Task<int> RunAsync(Args args, CancellationToken ct)
    {
        List<string> errors = [];
        var options = BenchOptions.From(args, Environment.GetEnvironmentVariable, errors);
        if (options is null)
        {
            return Cli.Fail(errors);
        }
        CpuSplit split = CpuSplit.Shared(Environment.ProcessorCount);
        if (options.Split)
        {
            var parts = options.Stack ? "PostgreSQL, APIs, HAProxy, RabbitMQ" : "PostgreSQL, APIs";
            if (!BenchHost.OnPath("taskset") || CpuSplit.Split(Environment.ProcessorCount, parts) is not { } halves)
            {
                return Cli.Fail(["--split-cpus needs taskset (util-linux) and at least 2 CPUs."]);
            }
            split = halves;
        }
        var results = Path.Combine("loadtest", "results", options.ResultsFolder);
        await using var host = BenchHost.Open("bench", split);
        results = Path.Combine(host.Root, results);
        if (Directory.Exists(results))
        {
            Directory.Delete(results, recursive: true);
        }
        Directory.CreateDirectory(results);
        var starting = System.Diagnostics.Stopwatch.StartNew();
        await using var system = host.Own(await OpenAsync(host, options, ct));
        return await new BenchCommand(host, options, system, results, starting.Elapsed).RunAsync(ct);
    }

    private static async Task<SystemUnderTest> OpenAsync(BenchHost host, BenchOptions options, CancellationToken ct)
    {
        if (options.Stack)
        {
            var stack = new StackUnderTest(host, options);
            stack.Open();
            await stack.StartAsync(Limits.Unlimited, NoSettings, ct);
            return stack;
        }
        if (options.External is { } external)
        {
            return new ExternalStack(external);
        }
        var own = new OwnApis(host, options);
        await own.OpenAsync();
        // Throughput runs: the per-client limiter out of the way (the stampedes run with the shipped limits).
        await own.StartAsync(Limits.Unlimited, NoSettings, ct);
        return own;
    }

    private static readonly Dictionary<string, string> NoSettings = [];

    private readonly List<(string Title, TimeSpan Took)> _phases = [("start (the database, the instances)", started)];
    private readonly System.Diagnostics.Stopwatch _clock = System.Diagnostics.Stopwatch.StartNew();
    private string? _phase;

    /// <summary>Ends the phase running (its time kept for the closing table) and begins the next, named on the console.</summary>
    private void Phase(string? title)
    {
        if (_phase is not null)
        {
            _phases.Add((_phase, _clock.Elapsed));
        }
        _clock.Restart();
        if (title is not null)
        {
            _phase = title.Split(':')[0];
            Console.WriteLine($"== {title}");
        }
    }

    private IReadOnlyList<string> Audit => ["--audit-provider", options.Backend, "--audit-connection", system.Db];

    private string Result(string name) => Path.Combine(results, name);

    private async Task<int> RunAsync(CancellationToken ct)
    {
        Phase("seeding");
        await MustAsync(["seed", "--provider", options.Backend, "--connection", system.Db, "--places", $"{options.Places}", "--disk-days", "12", "--json", Result("seed.json")], ct);
        using var admin = new BenchAdmin(system);
        var invitations = Path.Combine(host.Work, "invitations.csv");
        await admin.InvitationsAsync(100_000, invitations, ct);

        Phase("calibration: wrk on the no-op");
        await Calibration.RunAsync(host, options, system.Target, results, ct);
        // Each path's first run on these instances warms up longer: its code is new to the JIT (the real path's first run
        // is also round 1's of the rules, whose ratios divide by it).
        foreach (var scenario in (string[])["noop", "baseline", "reserve"])
        {
            Phase($"{scenario}");
            await ThroughputAsync(scenario, options.Concurrency, options.Duration, Result($"{scenario}.json"), [], ct, options.FirstWarmup);
        }
        // The campaign's rules against the real path just run (issue 41): round 1 here, the later rounds in alternating order.
        for (var round = 1; round <= options.RuleRounds; round++)
        {
            foreach (var scenario in RuleRounds.Order(round))
            {
                await RuleAsync(admin, scenario, invitations, round, ct);
            }
        }

        // The sweep: the same three paths at several concurrencies, so that each is judged at the load that suits it.
        foreach (var users in options.Sweep)
        {
            foreach (var scenario in (string[])["noop", "baseline", "reserve"])
            {
                Phase($"sweep: {scenario}, {users} users");
                Directory.CreateDirectory(Result("sweep"));
                await ThroughputAsync(scenario, users, options.SweepDuration, Result(Path.Combine("sweep", $"{scenario}-{users}.json")), [], ct);
            }
        }

        // The ceiling: the same bookings as bare set-based SQL on the same server and seeded data, the instances idle; it
        // leaves the seeded tables as it found them.
        if (options.Backend == "postgres")
        {
            Phase($"ceiling: the real path's bookings as bare set-based SQL (pgbench, 16 clients, 32 per transaction, {options.CeilingSeconds} s)");
            try
            {
                await Ceiling.RunAsync(host, system.Db, system.Postgres?.Bin, options.CeilingSeconds, 16, 32, Result("ceiling.json"), ct);
            }
            catch (InvalidOperationException ex)
            {
                Console.WriteLine($"ceiling FAILED: {ex.Message}");
            }
        }
        await CrowdsAsync(admin, ct);
        Phase(null);
        await SummaryAsync(ct);
        Console.WriteLine("--- where the time went (./slots bench, after the build) ---");
        foreach (var (title, took) in _phases)
        {
            Console.WriteLine($"{took.TotalSeconds,7:0} s  {title}");
        }
        return 0;
    }

    /// <summary>
    /// One scenario of a round of the rules: the real path as it is; the same crowd under an age rule that admits all of it
    /// (birth numbers of 1954-1963, the step open since 2020: issue 41 allows it 10 % of the real path's booked/s); on an
    /// invitation-only service, each person with a code of its own from the batch issued after seeding; or on a two-dose
    /// service, each booking taking its first dose where the crowd aims (days 0-6) and its second 28-35 days later at the
    /// same time (pairs/s at least half the real path's bookings/s, no half pair in the audit). The rule is set back after.
    /// </summary>
    private async Task RuleAsync(BenchAdmin admin, string scenario, string invitations, int round, CancellationToken ct)
    {
        var json = Result(RuleRounds.File(scenario, round));
        Directory.CreateDirectory(Path.GetDirectoryName(json)!);
        var of = options.RuleRounds == 1 ? "" : $" (round {round} of {options.RuleRounds})";
        switch (scenario)
        {
            case RuleRounds.RealPath:
                Phase($"reserve{of}");
                await ThroughputAsync(scenario, options.Concurrency, options.Duration, json, [], ct);
                break;
            case RuleRounds.AgeRule:
                Phase($"reserve under an age rule{of}");
                await admin.WhoMayBookAsync("""{"rule":"age","steps":[{"opensAt":"2020-01-01T00:00:00Z","bornOnOrBefore":"1963-12-31"}]}""", ct);
                await ThroughputAsync(scenario, options.Concurrency, options.Duration, json, ["--birth-years", "1954-1963"], ct);
                await admin.WhoMayBookAsync("""{"rule":"everyone"}""", ct);
                break;
            case RuleRounds.Invitations:
                Phase($"reserve with invitation codes{of}");
                await admin.WhoMayBookAsync("""{"rule":"invitation"}""", ct);
                await ThroughputAsync(scenario, options.Concurrency, options.Duration, json, ["--invitations", invitations, "--max-users", "100000"], ct);
                await admin.WhoMayBookAsync("""{"rule":"everyone"}""", ct);
                break;
            case RuleRounds.Pairs:
                Phase($"reserve pairs (both doses in one booking){of}");
                await admin.DosesAsync("""{"minDays":28,"maxDays":35}""", ct);
                await ThroughputAsync(scenario, options.Concurrency, options.Duration, json, [], ct);
                await admin.DosesAsync("null", ct);
                break;
            default:
                throw new ArgumentOutOfRangeException(nameof(scenario), scenario, "not a scenario of the rules' rounds");
        }
    }

    /// <summary>
    /// A closed crowd on the scenario's endpoint, after a warm-up of the same shape that is not measured (JIT tiers,
    /// connections, pools, prepared statements); on a booking endpoint the generator then puts the supply back, so the
    /// measured run starts on the seeded supply. The crowd aims at 50 popular places and their first 7 days (80 %).
    /// </summary>
    private async Task ThroughputAsync(string scenario, int users, int seconds, string json, IReadOnlyList<string> extra, CancellationToken ct, int? warmup = null)
    {
        var endpoint = scenario is "reserve-age" or "reserve-pair" or "reserve-invite" ? "reserve" : scenario;
        var prime = warmup ?? options.Warmup;
        if (prime == 0 && scenario != "noop")
        {
            await FreshAsync(ct); // no warm-up: the reset comes first instead
        }
        await MustAsync(["run", "--target", system.Target, "--scenario", scenario, "--endpoint", endpoint, "--flow", "reserve", "--mode", "closed",
            "--max-in-flight", $"{users}", "--duration", $"{seconds}", "--prime-seconds", $"{prime}", "--hot-places", "50", "--hot-days", "7",
            "--seed", "7", .. system.Watch, .. system.AtServer, .. Audit, .. extra, "--json", json], ct);
    }

    /// <summary>The seeded state again (every booking, key and history row gone), then a pause longer than the availability snapshot's age.</summary>
    private async Task FreshAsync(CancellationToken ct)
    {
        await MustAsync(["reset", "--provider", options.Backend, "--connection", system.Db], ct);
        await Task.Delay(1500, ct);
    }

    private async Task MustAsync(IEnumerable<string> args, CancellationToken ct)
    {
        var list = args.ToList();
        if (await host.GeneratorAsync(list, ct) is not 0 and var code)
        {
            throw new InvalidOperationException($"Slots.LoadTest {list[0]} failed (exit {code}); the benchmark stops.");
        }
    }

    /// <summary>A run whose failure (its audit's) is reported and the benchmark goes on, as the other scenarios still measure.</summary>
    private async Task TryAsync(string what, IEnumerable<string> args, CancellationToken ct)
    {
        if (await host.GeneratorAsync(args, ct) != 0)
        {
            Console.WriteLine($"{what} FAILED (see above)");
        }
    }

    private double Capacity() =>
        JsonNode.Parse(File.ReadAllText(Result("reserve.json")))!["goodputPerSecond"]!.GetValue<double>();

    private static string Number(double value) => value.ToString(CultureInfo.InvariantCulture);
}
