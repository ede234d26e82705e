using System.Diagnostics;
using System.Globalization;
using System.Net.Http.Json;
using Npgsql;
using Slots.LoadTest.Data;
using Slots.LoadTest.Simulation;
using Slots.Topology;
using Slots.Topology.Run;
using LoopbackStack = Slots.Topology.Run.Stack;

namespace Slots.LoadTest.Chaos;

/// <summary>`chaos` runs the soak against a stack that is up; `chaos-check` checks a recorded run again (loadtest/chaos.sh drives both).</summary>
public static class ChaosCommand
{
    public static async Task<int> RunAsync(Args args, CancellationToken ct)
    {
        // Several targets, comma-separated (the two HAProxy nodes of the high-availability stack): requests take turns.
        var targets = args.Text("target", "https://127.0.0.1:8443")!.Split(',', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Select(t => new Uri(t)).ToList();
        var target = targets[0];
        var ha = args.Text("ha") is not null;
        var db = args.Text("db", "Host=127.0.0.1;Port=55432;Database=slots;Username=postgres")!;
        var stackDir = args.Text("stack-dir", ".stack")!;
        var output = args.Text("out", "loadtest/results/chaos")!;
        var quick = args.Text("quick") is not null;
        var seed = args.Whole("seed", 17, 0, int.MaxValue);
        var faults = args.Whole("faults", quick ? 15 : 100, 0, 1000);
        var workers = args.Whole("workers", quick ? 8 : 12, 1, 64);
        var persons = args.Whole("persons", 160, 1, 100_000);
        var slotCount = args.Whole("slots", 24, 1, 1000);
        var apiCount = args.Whole("api-count", 3, 1, 4);
        var schedulers = args.Whole("scheduler-count", 2, 1, 2);
        // The high-availability stack runs 15 server processes on the same cores as the workload: a run
        // in CI timed a lookup out at 5.5 s with its own 5 s timer firing 0.5 s late, the load generator
        // starved too. 10 s still catches a request left hanging (the SPA itself waits 20 s).
        var timeout = TimeSpan.FromSeconds(args.Number("request-timeout", ha ? 10 : 5, 0.5, 60));
        var settle = TimeSpan.FromSeconds(args.Number("settle", 180, 10, 600));
        var repository = args.Text("repository", ".")!;
        var command = args.Text("command", "./slots chaos")!;
        args.RejectUnknown();
        if (args.Errors.Count > 0)
        {
            args.Errors.ForEach(Console.Error.WriteLine);
            return 2;
        }
        if (!targets.All(t => t.IsLoopback))
        {
            Console.Error.WriteLine("--target must be a loopback address: the soak injects faults into local processes only.");
            return 2;
        }

        var started = Stopwatch.StartNew();
        var plan = Nemesis.Plan(seed, faults, apiCount, schedulers, quick, ha);
        Directory.CreateDirectory(output);
        await File.WriteAllLinesAsync(Path.Combine(output, "plan.jsonl"), plan.Select(HistoryFile.Line), ct);
        using var recorder = new HistoryRecorder(output);
        using var sources = new SourceAddresses(Math.Min(workers, SimulationOptions.MaxSources), 4, TimeSpan.FromSeconds(2));
        var slots = await SlotsAsync(sources.For(0), target, slotCount, seed, ct);
        var runId = RunId(seed);
        Console.WriteLine($"chaos: seed {seed}, {faults} faults, {workers} workers, {persons} persons on {slots.Count} slots; history in {output}");

        using var stopWorkload = CancellationTokenSource.CreateLinkedTokenSource(ct);
        using var stopSampling = CancellationTokenSource.CreateLinkedTokenSource(ct);
        var jobRuns = new List<JobRunSample>();
        var sampling = SampleJobRunsAsync(db, Path.Combine(output, HistoryRecorder.JobRunsFileName), jobRuns, stopSampling.Token);
        var workload = new Workload(targets, sources, slots, persons, workers, runId, seed, timeout, recorder).RunAsync(stopWorkload.Token);
        using var stack = await OpenStackAsync(Path.GetFullPath(stackDir), Path.GetFullPath(repository));
        var nemesis = new Nemesis(stack, stack.Options.StateDir, recorder, Console.Out, output, db);
        try
        {
            await Task.Delay(TimeSpan.FromSeconds(3), ct);
            await nemesis.RunAsync(plan, ct);
            // A calm tail: the stack serves without faults, so the last fault's recovery shows.
            await Task.Delay(TimeSpan.FromSeconds(quick ? 5 : 10), ct);
        }
        finally
        {
            await stopWorkload.CancelAsync();
            await workload;
        }
        Console.WriteLine($"workload stopped after {recorder.Operations.Count} operations; healing and waiting for the final flush and relay…");
        var healed = await nemesis.HealAsync(ct);
        var (settled, outboxAtSettle) = await SettleAsync(db, SinkFiles(stackDir), settle, ct);
        await stopSampling.CancelAsync();
        await sampling;
        Console.WriteLine($"stack {(healed ? "healthy" : "NOT healthy")}; {(settled ? "flushed and relayed" : $"still not flushed and relayed after {settle.TotalSeconds:0} s")}");

        var state = await FinalStateReader.ReadAsync(db, SinkFiles(stackDir), jobRuns, ct);
        // A job wrote an SMS after the settle (a reminder coming due): wait for its relay too, a bounded number of times.
        for (var round = 0; settled && round < 3 && state.WroteSmsSince(outboxAtSettle); round++)
        {
            Console.WriteLine($"{state.Outbox.Count - outboxAtSettle} SMS written after the settle (the scheduler's jobs); waiting for their relay…");
            (settled, outboxAtSettle) = await SettleAsync(db, SinkFiles(stackDir), settle, ct);
            state = await FinalStateReader.ReadAsync(db, SinkFiles(stackDir), jobRuns, ct);
        }
        var report = HistoryChecker.Check(recorder.Operations, state, recorder.Faults);
        report.Print(Console.Out);
        var md = ChaosReport.Markdown(command, seed, recorder.Faults, recorder.Operations, report, started.Elapsed);
        await File.WriteAllTextAsync(Path.Combine(output, "report.md"), md, ct);
        Console.WriteLine();
        Console.Write(md);
        return report.Passed && healed ? 0 : 1;
    }

    /// <summary>Checks a recorded run again against the database and sink as they are now.</summary>
    public static async Task<int> CheckAsync(Args args, CancellationToken ct)
    {
        var folder = args.Text("history", "loadtest/results/chaos")!;
        var db = args.Text("db", "Host=127.0.0.1;Port=55432;Database=slots;Username=postgres")!;
        var stackDir = args.Text("stack-dir", ".stack")!;
        args.RejectUnknown();
        if (args.Errors.Count > 0)
        {
            args.Errors.ForEach(Console.Error.WriteLine);
            return 2;
        }
        var ops = HistoryFile.Read<Operation>(Path.Combine(folder, HistoryRecorder.HistoryFileName));
        var jobRuns = HistoryFile.Read<JobRunSample>(Path.Combine(folder, HistoryRecorder.JobRunsFileName));
        var faults = HistoryFile.Read<Fault>(Path.Combine(folder, HistoryRecorder.FaultsFileName));
        var state = await FinalStateReader.ReadAsync(db, SinkFiles(stackDir), jobRuns, ct);
        var report = HistoryChecker.Check(ops, state, faults);
        Console.WriteLine($"{ops.Count} operations from {folder}");
        report.Print(Console.Out);
        return report.Passed ? 0 : 1;
    }

    /// <summary>The stack `up` started in <paramref name="stackDir"/>, as its topology.json describes it; nothing is
    /// built again when the nemesis heals it. Its progress lines go to the soak's output, indented under the fault.</summary>
    private static async Task<LoopbackStack> OpenStackAsync(string stackDir, string repository)
    {
        var options = StateFolder.Resolve(StackOptions.FromProcessEnvironment(repository, ("SLOTS_STACK_DIR", stackDir))) with { Build = false };
        return await LoopbackStack.OpenAsync(options, line => Console.WriteLine("          " + line.TrimStart()));
    }

    private static string[] SinkFiles(string stackDir) =>
        Directory.Exists(Path.Combine(stackDir, "sms")) ? Directory.GetFiles(Path.Combine(stackDir, "sms"), "*.jsonl") : [];

    /// <summary>Letters only, from the seed: the national ids of this run's persons start with it.</summary>
    private static string RunId(int seed) =>
        string.Concat(seed.ToString("D4", CultureInfo.InvariantCulture).Select(c => (char)('A' + (c - '0'))).TakeLast(4));

    /// <summary>Slots of the first places' next days with seats free, drawn by the seed.</summary>
    private static async Task<IReadOnlyList<SlotChoice>> SlotsAsync(HttpClient client, Uri target, int count, int seed, CancellationToken ct)
    {
        var places = await client.GetFromJsonAsync(new Uri(target, "/api/places?page=1&pageSize=3"), WireJson.Default.PlacePage, ct)
            ?? throw new InvalidOperationException("GET /api/places answered no body.");
        var all = new List<SlotChoice>();
        foreach (var place in places.Items.Where(p => p.Active))
        {
            var zone = TimeZoneInfo.FindSystemTimeZoneById(place.TimeZone);
            var today = DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(DateTimeOffset.UtcNow, zone).DateTime);
            var week = await client.GetFromJsonAsync(
                new Uri(target, $"/api/places/{place.Id}/availability?from={Catalog.Day(today.AddDays(1))}&to={Catalog.Day(today.AddDays(3))}"),
                WireJson.Default.AvailabilityBody, ct) ?? throw new InvalidOperationException("GET availability answered no body.");
            all.AddRange(week.Days.SelectMany(d => d.Slots.Where(s => s.Free > 0).Select(s => new SlotChoice(place.Id, d.Day, s.Time))));
        }
        if (all.Count == 0)
        {
            throw new InvalidOperationException("No free slot in the next days of the first places: the soak needs demo data.");
        }
        var rng = new Random(seed);
        return all.OrderBy(_ => rng.Next()).Take(count).ToList();
    }

    /// <summary>job_runs keeps one row per job, so it is read four times a second to see (nearly) every run; a database that is down is skipped.</summary>
    private static async Task SampleJobRunsAsync(string db, string file, List<JobRunSample> seen, CancellationToken ct)
    {
        var known = new HashSet<JobRunSample>();
        await using var writer = new StreamWriter(file) { AutoFlush = true };
        while (!ct.IsCancellationRequested)
        {
            try
            {
                await using var connection = new NpgsqlConnection(db + ";Timeout=2;Command Timeout=2");
                await connection.OpenAsync(ct);
                while (!ct.IsCancellationRequested)
                {
                    foreach (var run in await FinalStateReader.SampleJobRunsAsync(connection, ct))
                    {
                        if (known.Add(run))
                        {
                            seen.Add(run);
                            await writer.WriteLineAsync(HistoryFile.Line(run));
                        }
                    }
                    await Task.Delay(250, ct);
                }
            }
            catch (OperationCanceledException)
            {
                break;
            }
            catch (Exception ex) when (ex is NpgsqlException or InvalidOperationException or TimeoutException or IOException)
            {
                try
                {
                    await Task.Delay(500, ct);
                }
                catch (OperationCanceledException)
                {
                    break;
                }
            }
        }
    }

    /// <summary>Waits until the flush drained every change and every outbox row was sent and written by the sink.</summary>
    private static async Task<(bool Settled, long Outbox)> SettleAsync(string db, string[] sinks, TimeSpan limit, CancellationToken ct)
    {
        var deadline = Stopwatch.StartNew();
        while (deadline.Elapsed < limit)
        {
            try
            {
                await using var connection = new NpgsqlConnection(db);
                await connection.OpenAsync(ct);
                await using var command = new NpgsqlCommand($"""
                    WITH sms AS ({ReservationEvents.SmsMessages})
                    SELECT ({ReservationEvents.PendingChanges}),
                           (SELECT count(*) FROM sms WHERE NOT sent),
                           (SELECT count(*) FROM sms o WHERE NOT EXISTS (SELECT 1 FROM sms_sent s WHERE s.message_id = o.id AND s.status <> 3)),
                           (SELECT count(*) FROM sms)
                    """, connection);
                await using var reader = await command.ExecuteReaderAsync(ct);
                await reader.ReadAsync(ct);
                var (changes, unsent, unrecorded, outbox) = (reader.GetInt64(0), reader.GetInt64(1), reader.GetInt64(2), reader.GetInt64(3));
                var lines = sinks.SelectMany(FinalStateReader.SinkLines).Select(l => l.Id).Distinct().LongCount();
                if (changes == 0 && unsent == 0 && unrecorded == 0 && lines >= outbox)
                {
                    return (true, outbox);
                }
            }
            catch (NpgsqlException)
            {
                // Still coming back.
            }
            await Task.Delay(1000, ct);
        }
        return (false, 0);
    }
}
