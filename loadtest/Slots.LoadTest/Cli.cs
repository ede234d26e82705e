using System.Globalization;
using System.Text.Json;
using Slots.LoadTest.Data;
using Slots.LoadTest.Reporting;
using Slots.LoadTest.Room;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest;

/// <summary>slots-loadtest run | room | availability | seed | reset | summarize; see loadtest/README.md.</summary>
internal static class Cli
{
    public static async Task<int> Main(string[] argv)
    {
        if (argv.Length == 0 || argv[0] is "-h" or "--help" or "help")
        {
            Console.WriteLine(Usage);
            return argv.Length == 0 ? 2 : 0;
        }
        var args = new Args(argv.Skip(1));
        using var cancel = new CancellationTokenSource();
        Console.CancelKeyPress += (_, e) =>
        {
            e.Cancel = true;
            cancel.Cancel();
        };
        try
        {
            return argv[0] switch
            {
                "run" => await RunAsync(args, cancel.Token),
                "room" => await RoomAsync(args, cancel.Token),
                "availability" => await AvailabilityAsync(args, cancel.Token),
                "finder" => await FinderAsync(args, cancel.Token),
                "seed" => await SeedAsync(args, cancel.Token),
                "reset" => await ResetAsync(args, cancel.Token),
                "summarize" => Summarize(args),
                "chaos" => await Chaos.ChaosCommand.RunAsync(args, cancel.Token),
                "chaos-check" => await Chaos.ChaosCommand.CheckAsync(args, cancel.Token),
                "site" => await Site.SiteCommand.RunAsync(args, Pids(args), cancel.Token),
                "waitlist" => await WaitingList.WaitingListCommand.RunAsync(args, Pids(args), cancel.Token),
                "bench" => await Bench.BenchCommand.RunAsync(args, cancel.Token),
                "bench-reminders" => await Bench.RemindersCommand.RunAsync(args, cancel.Token),
                "bench-finders" => await Bench.FindersCommand.RunAsync(args, cancel.Token),
                "bench-peers" => await Bench.PeersCommand.RunAsync(args, cancel.Token),
                "bench-pitr" => await Bench.PitrCommand.RunAsync(args, cancel.Token),
                _ => Fail([$"Unknown command '{argv[0]}'."]),
            };
        }
        catch (InvalidOperationException ex)
        {
            Console.Error.WriteLine(ex.Message);
            return 3;
        }
        catch (HttpRequestException ex)
        {
            Console.Error.WriteLine($"The API did not answer: {ex.Message}{(ex.InnerException is { } inner ? $" ({inner.Message})" : "")}");
            return 3;
        }
    }

    private const string Usage = """
        usage: Slots.LoadTest run --target http[s]://127.0.0.1:PORT[,…] [--scenario NAME] [--endpoint reserve|baseline|noop]
                   [--flow spa|reserve] [--mode open|closed] [--duration S] [--prime-seconds S (closed)] [--warmup-rate R] [--warmup-seconds S]
                   [--step-rate R | --capacity C --step-factor N] [--max-in-flight N] [--max-users N] [--give-up S]
                   [--request-timeout S] [--max-jitter-ms MS] [--sources N] [--hot-places N] [--hot-days N] [--hot-share F]
                   [--booking-attempts N] [--seed N] [--run-id LETTERS] [--watch-pids P,…] [--watch-db-pid P] [--watch-proxy-pid P]
                   [--server-metrics true | --proxy-log FILE] [--socket-timings true (tcpdump on the loopback)]
                   [--audit-provider sqlite|postgres --audit-connection CS] [--birth-years FIRST-LAST [--eligible-share F]]
                   [--invitations PATH (an issued batch's CSV: person k brings code k)] [--json PATH]
               Slots.LoadTest room --target http[s]://127.0.0.1:PORT[,…] --admin-key KEY [--seats 340] [--arrivals 20×seats] [--arrival-seconds 10]
                   [--pre-queue-seconds 5] [--admit-per-second seats/5 (0: as the seats allow)] [--admission-seconds 15] [--abandon 0.05]
                   [--abandon-allowance seats×abandon] [--rejoin 0.05] [--booking-attempts 5] [--time-limit 120] [--settle-seconds 3]
                   [--max-in-flight 1000] [--request-timeout S] [--max-jitter-ms 300] [--order-slack 1] [--sources N] [--seed N] [--run-id LETTERS]
                   [--watch-pids P,…] [--watch-db-pid P] [--watch-proxy-pid P] [--audit-provider sqlite|postgres --audit-connection CS] [--json PATH]
               Slots.LoadTest availability --target URL [--requests N] [--concurrency N] [--days 7] [--places N (cycle the first N places only; 1: one week read by all)]
                   [--warmup-seconds S (the same reads, uncounted, for S s first; 0: 50 in a row)]
                   [--watch-pids P,…] [--watch-db-pid P] [--watch-proxy-pid P] [--server-metrics true | --proxy-log FILE] [--json PATH]
               Slots.LoadTest finder --target URL [--seconds 65] [--interval 1] [--watch-pids P,…] [--json PATH]
                   (a vaccine finder: the cold SMART Scheduling Links publication, then the manifest polled every interval)
        """ + "\n" + Bench.BenchOptions.Usage + "\n" + Site.SiteCommand.Usage + "\n" + WaitingList.WaitingListCommand.Usage + "\n"
        + Bench.RemindersCommand.Usage + "\n" + Bench.FindersCommand.Usage + "\n" + Bench.PeersOptions.Usage + "\n" + Bench.PitrOptions.Usage + "\n" + """
               Slots.LoadTest seed --provider sqlite|postgres --connection CS [--places 1000] [--days 30] [--first 08:00]
                   [--last 16:15] [--interval 15] [--length 15] [--capacity 5] [--zone Europe/Bratislava] [--disk-days 0] [--json PATH]
                   (--disk-days: that many more days of slots from the horizon on, on disk only: where pairs' second doses go)
               Slots.LoadTest reset --provider sqlite|postgres --connection CS   (the seeded state again: every booking, key and history row gone)
               Slots.LoadTest summarize --results DIR [--backend NAME] [--out FILE.md]
               Slots.LoadTest chaos [--quick] [--seed N] [--faults N] [--target URL] [--db CS] [--stack-dir DIR] [--out DIR]
                   [--workers N] [--persons N] [--slots N] [--api-count N] [--scheduler-count N] [--request-timeout S] [--settle S]
               Slots.LoadTest chaos-check [--history DIR] [--db CS] [--stack-dir DIR]   (loadtest/chaos.sh; docs/reliability.md)
        Targets must be IPv4 loopback. Everything is bounded: duration ≤ 600 s, users, users in flight, time per user;
        room: a time limit ≤ 600 s for the whole crowd and requests in flight.
        """;

    internal static int Fail(IEnumerable<string> errors)
    {
        foreach (var e in errors)
        {
            Console.Error.WriteLine(e);
        }
        Console.Error.WriteLine("Run with --help for the options.");
        return 2;
    }

    private static async Task<int> RunAsync(Args args, CancellationToken ct)
    {
        var options = SimulationOptions.From(args);
        var audit = AuditTarget(args);
        var json = args.Text("json");
        var pids = Pids(args);
        var server = Server(args, options?.Targets);
        var sockets = args.Bool("socket-timings");
        args.RejectUnknown();
        if (options is { Prime.Ticks: > 0, Endpoint: not Endpoint.Noop } && audit is null)
        {
            args.Errors.Add("--prime-seconds on a booking endpoint needs --audit-provider and --audit-connection: the warm-up's bookings are cleared from that database before the measured run.");
        }
        if (args.Errors.Count > 0 || options is null)
        {
            return Fail(args.Errors);
        }
        if (options.Mode == Mode.Closed)
        {
            InlineSocketCompletions();
        }
        var report = await SimulateAsync(options, audit, pids, ct, server, sockets);
        Console.Write(report.ToTable());
        Write(json, report);
        return report.Audit is { Passed: false } ? 1 : 0;
    }

    /// <summary>
    /// A throughput run's generator must cost little next to the server it measures on the same cores: socket completions
    /// then run on the event loop's threads instead of hopping to the thread pool (fewer thread switches per request; wrk
    /// works the same way). Only for closed crowds: the stampedes' thousands of sleeping users keep the thread pool. The
    /// runtime reads the switch once, at the first socket, so it is set before any; a value in the environment wins.
    /// </summary>
    private static void InlineSocketCompletions()
    {
        const string Switch = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";
        if (Environment.GetEnvironmentVariable(Switch) is null)
        {
            Environment.SetEnvironmentVariable(Switch, "1");
        }
    }

    /// <summary>One scenario end to end: catalogue, warm-up, crowd, memory samples, audit. Public to the smoke test.</summary>
    public static async Task<RunReport> SimulateAsync(SimulationOptions options, (Provider, string)? audit, IReadOnlyList<(string Role, int Pid)> pids, CancellationToken ct,
        ServerWatch? server = null, bool sockets = false)
    {
        server ??= ServerWatch.None;
        var perAddress = Math.Max(2, (options.MaxInFlight / options.Sources) + 2);
        using var sources = new SourceAddresses(options.Sources, perAddress, TimeSpan.FromSeconds(5));
        var catalog = await Catalog.LoadAsync(sources.For(0), options.Targets[0], options, ct);
        var firstUser = await WarmUpAsync(options, sources, catalog, audit, ct);
        var (socket, atSocket) = sockets ? await CaptureAsync(options.Targets, ct) : (null, null);
        await using var capture = socket;
        await using var memory = new ProcessSampler([.. pids, ("generator", Environment.ProcessId), .. socket is null ? [] : (IEnumerable<(string, int)>)[("capture", socket.Pid)]]);
        await server.StartAsync(ct);
        memory.Start();
        var startedAt = DateTimeOffset.UtcNow;
        var recorder = await new Simulator(options).RunAsync(sources, catalog, ct, firstUser);
        var rss = await memory.StopAsync();
        atSocket ??= socket is null ? null : await socket.StopAsync(ct);
        var atServer = await server.StopAsync(ct);
        AuditResult? result = null;
        if (audit is var (provider, connection))
        {
            result = await Audit.RunAsync(provider, connection, recorder.Confirmations, ct);
        }
        return RunReport.From(options, startedAt, recorder, rss, result) with { Server = atServer, Socket = atSocket, PrimeSeconds = options.Prime.TotalSeconds };
    }

    /// <summary>The capture for --socket-timings, or why there is none (said in the report, not skipped in silence).</summary>
    private static async Task<(SocketWatch?, ServerLatency?)> CaptureAsync(IReadOnlyList<Uri> targets, CancellationToken ct)
    {
        if (SocketWatch.Unreadable(targets) is { } why)
        {
            return NotMeasured(why);
        }
        try
        {
            return (await SocketWatch.StartAsync(targets, ct), null);
        }
        catch (InvalidOperationException ex)
        {
            return NotMeasured(ex.Message);
        }

        static (SocketWatch?, ServerLatency?) NotMeasured(string why)
        {
            Console.WriteLine($"   at the socket: not measured ({why})");
            return (null, new ServerLatency($"not measured: {why}", new Dictionary<string, LatencyStats>()));
        }
    }

    /// <summary>
    /// The same crowd for <see cref="SimulationOptions.Prime"/>, unmeasured, on the same connections; then, on a booking
    /// endpoint, the database back to the seeded state (as Slots.LoadTest reset, the API instances staying up) and a
    /// pause longer than the availability snapshot's age, so the measured run starts on the whole supply. Returns the
    /// number the measured run's users start from.
    /// </summary>
    private static async Task<long> WarmUpAsync(SimulationOptions options, SourceAddresses sources, Catalog catalog, (Provider, string)? database, CancellationToken ct)
    {
        if (options.Prime <= TimeSpan.Zero)
        {
            return 0;
        }
        var warm = await new Simulator(options with { Duration = options.Prime }).RunAsync(sources, catalog, ct);
        var line = string.Create(CultureInfo.InvariantCulture, $"   warm-up (not measured): {warm.Started} users in {warm.Elapsed.TotalSeconds:0.0} s");
        if (options.Endpoint != Endpoint.Noop)
        {
            if (database is not var (provider, connection))
            {
                throw new InvalidOperationException("A warm-up on a booking endpoint needs the database to put the supply back (--audit-connection).");
            }
            var reset = await SeededState.RestoreAsync(provider, connection, ct);
            await Task.Delay(TimeSpan.FromSeconds(1.5), ct);
            line += string.Create(CultureInfo.InvariantCulture, $"; its {reset.Reservations:N0} reservations cleared in {reset.Seconds:0.0} s{(reset.Checkpointed ? ", then a checkpoint" : "")}");
        }
        Console.WriteLine(line);
        return warm.Started;
    }

    private static async Task<int> RoomAsync(Args args, CancellationToken ct)
    {
        var options = RoomOptions.From(args);
        var audit = AuditTarget(args);
        var json = args.Text("json");
        var pids = Pids(args);
        var server = Server(args, options?.Targets);
        args.RejectUnknown();
        if (args.Errors.Count > 0 || options is null)
        {
            return Fail(args.Errors);
        }
        await server.StartAsync(ct);
        var report = await AdmissionAsync(options, audit, pids, ct);
        report = report with { Server = await server.StopAsync(ct) };
        Console.Write(report.ToTable());
        Write(json, report);
        return report.Passed ? 0 : 1;
    }

    /// <summary>The waiting-room stampede end to end: scene, crowd (with CPU samples), checks, audit. Public to the smoke test.</summary>
    public static async Task<RoomReport> AdmissionAsync(RoomOptions options, (Provider, string)? audit, IReadOnlyList<(string Role, int Pid)> pids, CancellationToken ct)
    {
        using var sources = new SourceAddresses(options.Sources, Math.Max(2, (options.MaxInFlight / options.Sources) + 2), TimeSpan.FromSeconds(5));
        var run = await new RoomStampede(options).RunAsync(sources, pids, ct);
        AuditResult? result = null;
        long? held = null;
        if (audit is var (provider, connection))
        {
            result = await Audit.RunAsync(provider, connection, run.Recorder.Confirmations, ct);
            held = await PlaceAudit.ReservationsAtAsync(provider, connection, run.PlaceId, ct);
        }
        return RoomReport.From(options, run, result, held);
    }

    private static async Task<int> AvailabilityAsync(Args args, CancellationToken ct)
    {
        var options = SimulationOptions.From(args);
        var requests = args.Whole("requests", 2000, 1, 1_000_000);
        var concurrency = args.Whole("concurrency", 4, 1, 1000);
        var days = args.Whole("days", 7, 1, 31);
        var placesToCycle = args.Whole("places", 0, 0, 1_000_000);
        var warmup = args.Whole("warmup-seconds", 0, 0, 120);
        var wrkSeconds = args.Whole("then-wrk-seconds", 0, 0, 600);
        var json = args.Text("json");
        var pids = Pids(args);
        var server = Server(args, options?.Targets);
        args.RejectUnknown();
        if (args.Errors.Count > 0 || options is null)
        {
            return Fail(args.Errors);
        }
        using var sources = new SourceAddresses(options.Sources, Math.Max(2, (concurrency / options.Sources) + 2), TimeSpan.FromSeconds(5));
        var catalog = await Catalog.LoadAsync(sources.For(0), options.Targets[0], options, ct);
        await using var memory = new ProcessSampler([.. pids, ("generator", Environment.ProcessId)]);
        var report = await AvailabilityProbe.RunAsync(options.Targets[0], catalog, sources, requests, concurrency, days, options.RequestTimeout, ct,
            placesToCycle, TimeSpan.FromSeconds(warmup), measuring: async () =>
            {
                await server.StartAsync(ct);
                memory.Start();
            });
        report = report with { Processes = await memory.StopAsync(), Server = await server.StopAsync(ct) };
        if (wrkSeconds > 0)
        {
            report = report with { AtWrkPace = await WrkPace.RunAsync(AvailabilityProbe.WeekUrl(options.Targets[0], catalog, catalog.Places[0].Id, days), concurrency, wrkSeconds, pids, ct) };
        }
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"== availability, {days} days at one place, {report.PlacesCycled} places cycled, {concurrency} at a time: " +
            $"{report.Ok.Count} OK, p50 {report.Ok.P50:0.00} ms, p95 {report.Ok.P95:0.00} ms, p99 {report.Ok.P99:0.00} ms, max {report.Ok.Max:0.00} ms; other answers {report.NotOk}; " +
            $"API CPU per answer {(report.ApiCpuMicrosPerAnswer is { } us ? $"{us:0.0} µs" : "not watched")}{Summary.AtWrkPace(report.AtWrkPace)}"));
        foreach (var (kind, n) in report.Errors)
        {
            Console.WriteLine($"   {kind}: {n}");
        }
        Write(json, report);
        return 0;
    }

    private static async Task<int> FinderAsync(Args args, CancellationToken ct)
    {
        var target = args.Text("target");
        var seconds = args.Whole("seconds", 65, 1, 3600);
        var interval = args.Whole("interval", 1, 1, 600);
        var json = args.Text("json");
        var pids = Pids(args);
        args.RejectUnknown();
        Uri? url = null;
        if (target is null || !Uri.TryCreate(target.Split(',')[0], UriKind.Absolute, out url))
        {
            args.Errors.Add("--target URL is required.");
        }
        if (args.Errors.Count > 0 || url is null)
        {
            return Fail(args.Errors);
        }
        // The first publication of a whole campaign may take a while: the client waits for it as a finder would.
        using var http = new HttpClient(new SocketsHttpHandler().TrustingStackCa()) { Timeout = TimeSpan.FromMinutes(5) };
        var report = await FinderProbe.RunAsync(url, http, seconds, TimeSpan.FromSeconds(interval), pids, ct);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"== finder: the first publication ({report.Slots:N0} Slots, {report.Schedules:N0} Schedules, {report.Locations:N0} Locations, " +
            $"{report.Files} files, {report.Bytes / 1048576.0:0} MB) read in {report.ColdSeconds:0.00} s; then {report.Polls} polls in {report.PollSeconds} s, " +
            $"{report.Publications} publications, manifest p99 {report.Manifest.P99:0.00} ms, other answers {report.NotOk}"));
        Write(json, report);
        return 0;
    }

    private static async Task<int> ResetAsync(Args args, CancellationToken ct)
    {
        var provider = args.Enum("provider", Provider.Sqlite);
        var connection = args.Text("connection");
        args.RejectUnknown();
        if (connection is null)
        {
            args.Errors.Add("--connection is required.");
        }
        if (args.Errors.Count > 0)
        {
            return Fail(args.Errors);
        }
        var result = await SeededState.RestoreAsync(provider, connection!, ct);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Back to the seeded state: {result.Reservations:N0} reservations and {result.SeatsFreed:N0} taken seats cleared in {result.Seconds:0.0} s"));
        return 0;
    }

    private static async Task<int> SeedAsync(Args args, CancellationToken ct)
    {
        var provider = args.Enum("provider", Provider.Sqlite);
        var connection = args.Text("connection");
        var o = new SeedOptions(
            args.Whole("places", 1000, 1, 100_000),
            args.Whole("days", 30, 1, 60),
            Minute(args, "first", "08:00"),
            Minute(args, "last", "16:15"),
            args.Whole("interval", 15, 5, 240),
            args.Whole("length", 15, 5, 240),
            args.Whole("capacity", 5, 1, 1000),
            args.Text("zone", "Europe/Bratislava")!,
            args.Whole("disk-days", 0, 0, 60));
        var json = args.Text("json");
        args.RejectUnknown();
        if (connection is null)
        {
            args.Errors.Add("--connection is required.");
        }
        var seats = (long)o.Places * o.Days * (((o.LastMinute - o.FirstMinute) / o.Interval) + 1) * o.Capacity;
        if (seats > 20_000_000)
        {
            args.Errors.Add($"That is {seats:N0} seats; the seeder stops at 20 million.");
        }
        if (args.Errors.Count > 0)
        {
            return Fail(args.Errors);
        }
        Console.WriteLine($"Seeding {seats:N0} seats ({o.Places} places × {o.Days} days × times × {o.Capacity})…");
        var result = await Seeder.RunAsync(provider, connection!, o, ct);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"Seeded {result.Places} places, {result.Slots:N0} slots, {result.Seats:N0} hot seats in {result.Seconds:0.0} s; database {result.DatabaseBytes / 1048576.0:0} MB"));
        Write(json, result);
        return 0;
    }

    private static int Summarize(Args args)
    {
        var folder = args.Text("results", "loadtest/results")!;
        var backend = args.Text("backend", "local")!;
        var output = args.Text("out");
        args.RejectUnknown();
        if (args.Errors.Count > 0)
        {
            return Fail(args.Errors);
        }
        var md = Summary.Markdown(folder, backend);
        Console.Write(md);
        if (output is not null)
        {
            File.WriteAllText(output, md);
        }
        return 0;
    }

    /// <summary>
    /// --proxy-log FILE: HAProxy's log, read for the run's lines; --server-metrics true: each target's
    /// /metrics, read before and after (targets that are API instances, reached directly).
    /// </summary>
    private static ServerWatch Server(Args args, IReadOnlyList<Uri>? targets)
    {
        var log = args.Text("proxy-log");
        var metrics = args.Bool("server-metrics") && targets is not null;
        if (log is not null && !File.Exists(log))
        {
            args.Errors.Add($"--proxy-log: '{log}' does not exist.");
        }
        return new ServerWatch(log, metrics ? targets! : []);
    }

    private static (Provider, string)? AuditTarget(Args args)
    {
        var connection = args.Text("audit-connection");
        var provider = args.Enum("audit-provider", Provider.Sqlite);
        return connection is null ? null : (provider, connection);
    }

    /// <summary>--watch-pids: the API processes; --watch-db-pid: the database server (its backends counted with it); --watch-proxy-pid: HAProxy.</summary>
    private static List<(string Role, int Pid)> Pids(Args args)
    {
        var pids = new List<(string, int)>();
        foreach (var (option, role) in new[] { ("watch-pids", "api"), ("watch-db-pid", "database"), ("watch-proxy-pid", "proxy") })
        {
            foreach (var text in (args.Text(option) ?? "").Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries))
            {
                if (int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var pid))
                {
                    pids.Add((role, pid));
                }
                else
                {
                    args.Errors.Add($"--{option}: '{text}' is not a process id.");
                }
            }
        }
        return pids;
    }

    private static int Minute(Args args, string name, string fallback)
    {
        var text = args.Text(name, fallback)!;
        if (TimeOnly.TryParseExact(text, "HH:mm", CultureInfo.InvariantCulture, DateTimeStyles.None, out var t))
        {
            return (t.Hour * 60) + t.Minute;
        }
        args.Errors.Add($"--{name} must be HH:mm; got '{text}'.");
        return 0;
    }

    internal static void Write<T>(string? path, T value)
    {
        if (path is null)
        {
            return;
        }
        var folder = Path.GetDirectoryName(Path.GetFullPath(path));
        if (folder is not null)
        {
            Directory.CreateDirectory(folder);
        }
        File.WriteAllText(path, JsonSerializer.Serialize(value, RunReport.Json));
    }
}
