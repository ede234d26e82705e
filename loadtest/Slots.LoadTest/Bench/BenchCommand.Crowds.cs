using System.Globalization;
using System.Text.Json.Nodes;

namespace Slots.LoadTest.Bench;

/// <summary>The stampedes and the reads after the throughput runs, then the summary.</summary>
internal sealed partial class BenchCommand
{
    private async Task CrowdsAsync(BenchAdmin admin, CancellationToken ct)
    {
        var capacity = Capacity();
        var warmupRate = Number(capacity / 2);
        Phase($"stampede: warm-up at half the measured capacity ({Number(capacity)}/s), then a step to {options.StepFactor}× capacity");
        await system.StartAsync(Limits.Shipped, NoSettings, ct); // the shipped per-client limits, queue and maxconn
        await WarmCrowdAsync(capacity, ct);
        await FreshAsync(ct);
        IReadOnlyList<string> step = ["--warmup-rate", warmupRate, "--warmup-seconds", "5", "--capacity", Number(capacity), "--step-factor", $"{options.StepFactor}",
            "--duration", $"{options.Duration + 5}", "--max-in-flight", "2000", "--give-up", $"{options.GiveUp}"];
        await TryAsync("stampede audit", ["run", "--target", system.Target, "--scenario", "stampede", "--endpoint", "reserve", "--flow", "spa", "--mode", "open",
            .. step, "--seed", "11", .. system.Watch, .. system.AtServer, .. AtSocket, .. Audit, "--json", Result("stampede.json")], ct);

        // Demand far above supply: the same step, every arrival after one place's week (a few hundred to about a thousand
        // free seats), so most answers are 409 slot-full, 429, or "no free seat": what the answers that are not bookings cost.
        Phase("sold-out stampede: the same step, everyone after one place's week");
        await FreshAsync(ct);
        await TryAsync("sold-out stampede audit", ["run", "--target", system.Target, "--scenario", "soldout", "--endpoint", "reserve", "--flow", "spa", "--mode", "open",
            .. step, "--seed", "13", "--max-places", "1", "--hot-places", "1", "--hot-days", "1", "--hot-share", "1",
            .. system.Watch, .. system.AtServer, .. AtSocket, .. Audit, "--json", Result("soldout.json")], ct);

        // A waiting room in front of one place: an opening a few seconds ahead, 20× more arrivals than seats, booking only with
        // an admission. Checks: every seat booked and no more, nobody admitted after the sell-out, everyone told, first in first out.
        var roomSeats = options.Quick ? 68 : 340;
        Phase($"waiting-room stampede: {roomSeats * 20} arrivals for {roomSeats} seats behind an opening");
        if (system is OwnApis && options.Backend == "postgres")
        {
            // The serving counter is a scheduler job, and on PostgreSQL the API runs no jobs (the stack has scheduler hosts):
            // the first instance runs them for this step, once the earlier scenarios' hot changes are flushed to disk.
            await system.StartAsync(Limits.Shipped, InProcessJobs, ct);
            await admin.FlushedAsync(ct);
        }
        await TryAsync("waiting-room stampede", ["room", "--target", system.Target, "--admin-key", BenchSecrets.AdminKey, "--seats", $"{roomSeats}", "--seed", "19",
            .. system.Watch, .. system.ProxyLog, .. Audit, "--json", Result("room.json")], ct);
        // The probes, the site's day and the waiting list measure what a read or a staff action costs, not the per-client
        // limits (the stack's HAProxy and API ones too: under them the site's day made 20 of its 1,200 bookings); each
        // probe warms the fresh instances up first, uncounted.
        await system.StartAsync(Limits.Unlimited, NoSettings, ct);

        var seats = JsonNode.Parse(await File.ReadAllTextAsync(Result("seed.json"), ct))!["seats"];
        Phase($"availability of a week at one place with {seats} hot seats");
        await MustAsync(["availability", "--target", system.FirstUrl, "--requests", options.Quick ? "300" : "3000", "--concurrency", "4", "--days", "7",
            "--warmup-seconds", "5", .. system.Watch, .. system.AtServer, "--json", Result("availability.json")], ct);
        // The same week read by everyone (one place), 32 at a time: the answers the API keeps, and the API's CPU per answer
        // (target ≤ 50 µs); without a proxy only the instance read is watched, so the other's idle CPU does not count. Then
        // the same read at wrk's pace, as the no-op is calibrated: the generator's pace sets much of the CPU per answer.
        Phase("availability of one place's week, read by everyone");
        await MustAsync(["availability", "--target", system.FirstUrl, "--places", "1", "--requests", options.Quick ? "10000" : "30000", "--concurrency", "32",
            "--days", "7", "--warmup-seconds", "5", "--then-wrk-seconds", options.Quick ? "5" : "10", .. system.OneApiWatch, .. system.AtServer,
            "--json", Result("availability-kept.json")], ct);

        // A vaccine finder (issue 41): the first SMART Scheduling Links publication of the whole seeded campaign (target: under
        // 10 s), then the manifest polled every second for a minute and more; the API's CPU meanwhile (target ≤ 2 %). A quick
        // run polls for 5 s, inside the minute one publication lasts: it checks the path, not the cost of publishing again.
        Phase("finder: the bulk publication, then a poll every second");
        await MustAsync(["finder", "--target", system.FirstUrl, "--seconds", options.Quick ? "5" : "65", "--interval", "1", .. system.Watch, "--json", Result("finder.json")], ct);

        // The site's day at the same scale (issue 40): 1,200 bookings at a place of its own, its roster read by 8 staff (after
        // 30 s of the same reads uncounted: the roster's code is new to the instances and the JIT takes that long on 2 cores)
        // while the door checks each booking in once, 8 at a time (after a place of its own checked 300 in, uncounted, for the
        // same reason), and a block cancel of the next day's 1,200 in one request.
        Phase("the site's day: roster, check-in, block cancel");
        IReadOnlyList<string> signIn = system.StaffKey is { } key ? ["--staff-signing-key", key] : [];
        await TryAsync("the site's day", ["site", "--target", system.FirstUrl, "--admin-key", BenchSecrets.AdminKey, .. signIn, "--seconds", options.Quick ? "3" : "10",
            "--warmup-seconds", options.Quick ? "3" : "30", .. system.OneApiWatch, "--json", Result("site.json")], ct);

        // The database's own commit time right before the waiting list, whose claim is one durable commit: on a virtual
        // machine's disk the WAL's flush has a tail of tens to hundreds of milliseconds in some hours, not in others.
        if (options.Backend == "postgres")
        {
            Phase($"the database's commit pace: one pgbench client, {CommitPace.PerSecond} one-row commits a second");
            try
            {
                await CommitPace.RunAsync(host, system.Db, system.Postgres?.Bin, options.Quick ? 5 : 10, Result("commit.json"), ct);
            }
            catch (InvalidOperationException ex)
            {
                Console.WriteLine($"commit pace FAILED: {ex.Message}");
            }
        }

        // The waiting list with the product's job intervals (issue 40): 100 booked seats at a place of its own cancelled over
        // 30 s, each offered to the next of a line of 1,000, claimed or declined. Its jobs run in the first API.
        if (system is OwnApis)
        {
            await system.StartAsync(Limits.Unlimited, InProcessJobs, ct);
        }
        Phase("the waiting list: cancel to offer, claim");
        await TryAsync("the waiting list", ["waitlist", "--target", system.FirstUrl, "--admin-key", BenchSecrets.AdminKey, "--seconds", options.Quick ? "10" : "30",
            .. system.OneApiWatch, "--json", Result("waitlist.json")], ct);

        if (system.Postgres is { } postgres)
        {
            // Proportional set size of the server and its backends: shared buffers counted once, not per process.
            await File.WriteAllTextAsync(Result("database-memory.json"), $"{{\"postgresPssMb\": {postgres.PssMegabytes()}}}", ct);
        }
    }

    /// <summary>
    /// The stampedes are timed at the targets' sockets too (tcpdump): the API's histograms start at the handler, and what
    /// waits before it (the socket, Kestrel, the thread pool) is part of a person's wait.
    /// </summary>
    private static readonly string[] AtSocket = ["--socket-timings", "true"];

    private static readonly Dictionary<string, string> InProcessJobs = new() { ["Slots__Scheduler__InProcess"] = "true" };

    /// <summary>
    /// The fresh instances serve the stampede's own crowd for a while, uncounted: in an instance's first tens of seconds the
    /// runtime compiles its hot code again, optimized (a fifth of a cold instance's CPU samples in its first stampede went to
    /// the JIT, 4 % after this), which is what an instance costs while it starts, not what an answer costs. Then a pause of
    /// the shipped per-address window (10 s), so the measured crowd finds every address's writes unspent.
    /// </summary>
    private async Task WarmCrowdAsync(double capacity, CancellationToken ct)
    {
        if (options.StampedeWarmup == 0)
        {
            return;
        }
        Phase($"stampede warm-up: the same crowd for {options.StampedeWarmup} s, not counted");
        await MustAsync(["run", "--target", system.Target, "--scenario", "warm-up", "--endpoint", "reserve", "--flow", "spa", "--mode", "open",
            "--warmup-rate", Number(capacity / 2), "--warmup-seconds", "2", "--capacity", Number(capacity), "--step-factor", $"{options.StepFactor}",
            "--duration", $"{options.StampedeWarmup}", "--max-in-flight", "2000", "--give-up", "10", "--seed", "5",
            "--json", Result("stampede-warm-up.json")], ct);
        await Task.Delay(TimeSpan.FromSeconds(10), ct);
    }

    private async Task SummaryAsync(CancellationToken ct)
    {
        var summary = Result("summary.md");
        var backend = options.Backend + (options.Stack ? " behind HAProxy" : "");
        var memory = system.Postgres is null ? "" : $"PostgreSQL memory (PSS of server + backends): {JsonNode.Parse(await File.ReadAllTextAsync(Result("database-memory.json"), ct))!["postgresPssMb"]} MB.\n";
        var where = (options.Stack ? " behind HAProxy (./slots stack)" : "") + (options.External is not null ? ", external stack" : "");
        var text = $"""
            Machine: {Machine()}, load average at the end {string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3))}.
            Command: {options.Command}; duration {options.Duration} s after a {options.Warmup} s warm-up ({options.FirstWarmup} s before each path's first run), {options.Concurrency} users at a time, {options.Instances} API instance(s){where}.
            CPUs: {host.Split.Text}.
            {memory}
            """ + "\n" + Reporting.Summary.Markdown(results, backend);
        await File.WriteAllTextAsync(summary, text, ct);
        Console.WriteLine();
        Console.WriteLine(text);
    }

    private static string Machine()
    {
        var model = File.ReadLines("/proc/cpuinfo").FirstOrDefault(l => l.StartsWith("model name", StringComparison.Ordinal))?.Split(':', 2)[1].Trim() ?? "unknown CPU";
        var kb = long.Parse(File.ReadLines("/proc/meminfo").First(l => l.StartsWith("MemTotal", StringComparison.Ordinal)).Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], CultureInfo.InvariantCulture);
        return $"{Environment.ProcessorCount} cores ({model}), {Math.Round(kb / 1048576.0)} GiB memory";
    }
}
