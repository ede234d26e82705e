using System.Globalization;

namespace Slots.LoadTest.Bench;

/// <summary>
/// What ./slots bench measures and at what size: its options (--backend, --quick, --stack, --ha, --sweep, --split-cpus)
/// and its knobs (SLOTS_BENCH_* in the environment), with --quick's smaller defaults where a knob is unset.
/// </summary>
internal sealed record BenchOptions
{
    public const string Usage = """
               Slots.LoadTest bench [--backend postgres|sqlite] [--quick] [--stack [--ha]] [--sweep] [--split-cpus]
                   (./slots bench: the benchmark of docs/benchmarks.md; knobs SLOTS_BENCH_* in loadtest/README.md)
        """;

    public string Backend { get; init; } = "postgres";
    public bool Quick { get; init; }
    public bool Stack { get; init; }
    public bool Ha { get; init; }
    public bool Split { get; init; }

    /// <summary>Seconds of each measured throughput run, after <see cref="Warmup"/> seconds of the same load uncounted.</summary>
    public int Duration { get; init; }
    public int Warmup { get; init; }

    /// <summary>
    /// Seconds of the uncounted warm-up before the first run of each path (the no-op, the EF baseline, the real path), on
    /// instances that have not served it yet: the JIT takes tens of seconds on 2 cores to settle a path's code.
    /// </summary>
    public int FirstWarmup { get; init; }
    public int Concurrency { get; init; }

    /// <summary>Seconds a stampede's user waits for its answers before it gives up; every stampede ends with this wait.</summary>
    public int GiveUp { get; init; }

    /// <summary>Seconds the stampedes' fresh instances serve the same crowd, uncounted, before the first measured stampede (0: none; --quick's default).</summary>
    public int StampedeWarmup { get; init; }

    /// <summary>Seeded places: 1,000 × 30 days × 34 times × 5 seats = 5.1 M hot seats.</summary>
    public int Places { get; init; }
    public int StepFactor { get; init; }
    public int Instances { get; init; }

    /// <summary>fsync and synchronous_commit on in the benchmark's own PostgreSQL.</summary>
    public bool Durable { get; init; }

    /// <summary>The benchmark's own PostgreSQL on huge pages reserved for the run (SLOTS_BENCH_HUGE_PAGES, on unless 0).</summary>
    public bool HugePages { get; init; }

    /// <summary>Users in flight of the sweep's runs; empty: no sweep.</summary>
    public IReadOnlyList<int> Sweep { get; init; } = [];
    public int SweepDuration { get; init; }
    public int CeilingSeconds { get; init; }

    /// <summary>Rounds of the real path against the campaign's rules (age, invitation codes, pairs), the order reversed every other round.</summary>
    public int RuleRounds { get; init; }

    /// <summary>An external stack to measure instead of starting one (SLOTS_BENCH_TARGET and its companions).</summary>
    public ExternalTarget? External { get; init; }

    /// <summary>The options and knobs; null with the problems in <paramref name="errors"/>.</summary>
    public static BenchOptions? From(Args args, Func<string, string?> env, List<string> errors)
    {
        var backend = args.Text("backend", "postgres")!;
        var quick = args.Bool("quick");
        var ha = args.Bool("ha");
        var stack = args.Bool("stack") || ha;
        var sweep = args.Bool("sweep");
        var split = args.Bool("split-cpus");
        args.RejectUnknown();
        errors.AddRange(args.Errors);
        if (backend is not ("postgres" or "sqlite"))
        {
            errors.Add("--backend must be postgres or sqlite.");
        }
        int Knob(string name, int normal, int quickly)
        {
            var text = env(name);
            if (string.IsNullOrEmpty(text))
            {
                return quick ? quickly : normal;
            }
            if (!int.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) || value < 0)
            {
                errors.Add($"{name} must be a whole number of at least 0; got '{text}'.");
            }
            return value;
        }
        var sweepUsers = env("SLOTS_BENCH_SWEEP") is { Length: > 0 } listed
            ? listed.Split(' ', StringSplitOptions.RemoveEmptyEntries).Select(u => int.TryParse(u, CultureInfo.InvariantCulture, out var n) && n > 0 ? n : Bad(u)).ToList()
            : sweep ? (quick ? [16, 64] : [16, 64, 256]) : [];
        int Bad(string users)
        {
            errors.Add($"SLOTS_BENCH_SWEEP holds users in flight, e.g. \"16 64 256\"; got '{users}'.");
            return 1;
        }
        var external = ExternalTarget.From(env, errors);
        if (stack)
        {
            backend = "postgres"; // the stack's database
        }
        var options = new BenchOptions
        {
            Backend = external?.Provider ?? backend,
            Quick = quick,
            Stack = stack,
            Ha = ha,
            Split = split,
            Duration = Knob("SLOTS_BENCH_DURATION", 20, 5),
            Warmup = Knob("SLOTS_BENCH_WARMUP", 5, 3),
            FirstWarmup = Knob("SLOTS_BENCH_FIRST_WARMUP", 20, 3), // --quick checks the path and stays under 5 minutes
            Concurrency = Knob("SLOTS_BENCH_CONCURRENCY", 64, 64),
            GiveUp = Knob("SLOTS_BENCH_GIVE_UP", 30, 10),
            StampedeWarmup = Knob("SLOTS_BENCH_STAMPEDE_WARMUP", 20, 0), // --quick checks the path and stays under 5 minutes
            Places = Knob("SLOTS_BENCH_PLACES", 1000, 20),
            StepFactor = Knob("SLOTS_BENCH_STEP_FACTOR", 20, 20),
            Instances = stack ? Knob("SLOTS_API_COUNT", 2, 2) : Knob("SLOTS_BENCH_INSTANCES", backend == "postgres" ? 2 : 1, backend == "postgres" ? 2 : 1),
            Durable = env("SLOTS_BENCH_PG_DURABLE") is not "0",
            HugePages = env("SLOTS_BENCH_HUGE_PAGES") is not "0",
            Sweep = sweepUsers,
            SweepDuration = Knob("SLOTS_BENCH_SWEEP_DURATION", 10, 3),
            // 20 places: a longer ceiling would book most of the seats it draws from.
            CeilingSeconds = Knob("SLOTS_BENCH_CEILING_SECONDS", 10, 1),
            External = stack ? null : external,
            RuleRounds = Knob("SLOTS_BENCH_RULE_ROUNDS", 3, 1),
        };
        if (options.RuleRounds is < 1 or > 9)
        {
            errors.Add($"SLOTS_BENCH_RULE_ROUNDS must be 1 to 9 rounds; got {options.RuleRounds}.");
        }
        if (options.GiveUp is < 1 or > 300)
        {
            errors.Add($"SLOTS_BENCH_GIVE_UP must be 1 to 300 seconds; got {options.GiveUp}.");
        }
        return errors.Count == 0 ? options : null;
    }

    /// <summary>Where the results go: loadtest/results/BACKEND, or stack / stack-ha.</summary>
    public string ResultsFolder => Stack ? (Ha ? "stack-ha" : "stack") : Backend;

    /// <summary>The command as the summary names it.</summary>
    public string Command =>
        $"./slots bench --backend {Backend}{(Quick ? " --quick" : "")}{(Stack ? (Ha ? " --stack --ha" : " --stack") : "")}"
        + (Sweep.Count > 0 ? $" --sweep ({string.Join(' ', Sweep)} users, {SweepDuration} s)" : "")
        + (Split ? " --split-cpus" : "");
}

/// <summary>
/// A stack that is already up, measured as it is (SLOTS_BENCH_TARGET, SLOTS_BENCH_DB, SLOTS_BENCH_PROVIDER,
/// SLOTS_BENCH_API_PIDS, SLOTS_BENCH_DB_PID, SLOTS_BENCH_PROXY_LOG, SLOTS_BENCH_STAFF_KEY).
/// </summary>
internal sealed record ExternalTarget(string Target, string Db, string Provider, string Pids, string? DbPid, string? ProxyLog)
{
    public static ExternalTarget? From(Func<string, string?> env, List<string> errors)
    {
        if (env("SLOTS_BENCH_TARGET") is not { Length: > 0 } target)
        {
            return null;
        }
        if (env("SLOTS_BENCH_DB") is not { Length: > 0 } db)
        {
            errors.Add("SLOTS_BENCH_DB is required with SLOTS_BENCH_TARGET.");
            return null;
        }
        return new(target, db, env("SLOTS_BENCH_PROVIDER") is { Length: > 0 } p ? p : "postgres", env("SLOTS_BENCH_API_PIDS") ?? "",
            env("SLOTS_BENCH_DB_PID") is { Length: > 0 } dbPid ? dbPid : null, env("SLOTS_BENCH_PROXY_LOG") is { Length: > 0 } log ? log : null);
    }
}
