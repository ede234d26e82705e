using System.Diagnostics;
using System.Globalization;
using Slots.LoadTest.Data;

namespace Slots.LoadTest.Bench;

/// <summary>
/// Slots.LoadTest bench-reminders (./slots bench reminders): a reminder run for a day of 100,000 bookings (issue #29's
/// target), how fast the reminders are queued and whether bookings made meanwhile keep their p99.
/// <list type="number">
/// <item>One API instance (Release, SQLite, a data folder of its own): a place with 120 slots of 840 seats tomorrow, every
/// seat booked (written straight into the hot tables: 100,800 bookings), and a second place for new bookings the day after.</item>
/// <item>SLOTS_REM_ROUNDS rounds, each two windows of SLOTS_REM_SECONDS of bookings at the second place with wrk (8
/// connections, a new person per request, after a 3 s warm-up): one with reminders off, one with the instance restarted
/// and the day's reminders due at once, going out at SLOTS_REM_RATE per second in batches of SLOTS_REM_BATCH.</item>
/// </list>
/// SLOTS_REM_RATE=1000000 SLOTS_REM_BATCH=1000 is the unthrottled worst case. --backend postgres runs it at the benchmark's
/// scale instead: a PostgreSQL of its own seeded with 1,000 places × 30 days × 34 times × 5 seats (5.1 M hot seats), seats
/// 1-3 of tomorrow booked at every place (102,000 bookings), the product's reminder settings (RemindersOptions), and the
/// job's statements from pg_stat_statements. The summary goes to loadtest/results/reminders/summary.md (sqlite) or
/// summary-postgres.md.
/// </summary>
internal static class RemindersCommand
{
    public const string Usage = """
               Slots.LoadTest bench-reminders [--backend sqlite|postgres]   (./slots bench reminders: a day's bookings reminded while others
                   book, with wrk; SQLite 100,800 at one place, PostgreSQL 102,000 of 5.1 M seats; SLOTS_REM_SECONDS=15|30 SLOTS_REM_RATE=20
                   SLOTS_REM_BATCH=100|500 SLOTS_REM_ROUNDS=3 SLOTS_REM_EVERY=1|15; → loadtest/results/reminders/summary[-postgres].md)
        """;

    private const string Book = "loadtest/reminders/book.lua";

    public static async Task<int> RunAsync(Args args, CancellationToken ct)
    {
        var backend = args.Enum("backend", Provider.Sqlite);
        var options = RemindersOptions.From(Environment.GetEnvironmentVariable, args.Errors, backend);
        args.RejectUnknown();
        if (args.Errors.Count > 0)
        {
            return Cli.Fail(args.Errors);
        }
        if (!BenchHost.OnPath("wrk"))
        {
            Console.Error.WriteLine("needs wrk (apt-get install wrk)");
            return 2;
        }
        await using var host = BenchHost.Open("reminders", CpuSplit.Shared(Environment.ProcessorCount));
        if (!File.Exists(host.ApiDll))
        {
            throw new InvalidOperationException($"No Release API at {host.ApiDll}: ./slots bench reminders builds it.");
        }
        var pg = backend == Provider.Postgres;
        string db, own;
        if (pg)
        {
            var server = host.Own(await OwnPostgres.StartAsync(host.Work,
                ["max_connections=400", "shared_buffers=512MB", "shared_preload_libraries=pg_stat_statements", "pg_stat_statements.track=all"], host.Split.Stack));
            await server.PsqlAsync("slots", "CREATE EXTENSION IF NOT EXISTS pg_stat_statements");
            db = server.ConnectionString(";Maximum Pool Size=40;Timeout=5");
            own = server.ConnectionString(";Pooling=False");
        }
        else
        {
            db = $"Data Source={Path.Combine(host.Work, "slots.db")}";
            // The benchmark's own reads and writes hold no pooled handle on the instance's file between windows.
            own = db + ";Pooling=False";
        }
        var (tomorrow, later) = RemindersFigures.Days(DateTimeOffset.UtcNow, TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava"));
        int fresh, busy = 0, seeded = 0;
        await using (var api = await StartAsync(host, options, db, reminders: false, ct))
        {
            using var admin = new HttpClient { BaseAddress = new Uri(api.Url), Timeout = TimeSpan.FromMinutes(5) };
            admin.DefaultRequestHeaders.Add("X-Api-Key", BenchSecrets.AdminKey);
            if (pg)
            {
                // The seeder fills a database without places: the booking place comes after it.
                var seedLog = Path.Combine(host.Work, "seed.log");
                await host.MustGeneratorAsync(["seed", "--provider", "postgres", "--connection", own, "--places", "1000"], seedLog, ct);
                Console.WriteLine(File.ReadLines(seedLog).LastOrDefault(l => l.Length > 0));
                fresh = await RemindersSetup.PlaceAsync(admin, "Poliklinika Juh", ct);
                await RemindersSetup.SlotsAsync(admin, fresh, later, 5_000, ct);
                seeded = await RemindersSetup.BookSeededDayAsync(own, tomorrow, ct);
            }
            else
            {
                busy = await RemindersSetup.PlaceAsync(admin, "Očkovacie centrum Hlavná", ct);
                fresh = await RemindersSetup.PlaceAsync(admin, "Poliklinika Juh", ct);
                await RemindersSetup.SlotsAsync(admin, busy, tomorrow, 840, ct);
                await RemindersSetup.SlotsAsync(admin, fresh, later, 10_000, ct);
            }
        }
        if (!pg)
        {
            seeded = await RemindersSetup.BookEverySeatAsync(own, busy, tomorrow, ct);
        }
        else
        {
            // The statements' figures cover the windows only, not the seed and the setup.
            await RemindersSetup.ForgetStatementsAsync(own, ct);
        }
        var booking = new Dictionary<string, string>
        {
            ["SLOTS_BOOK_PLACE"] = fresh.ToString(CultureInfo.InvariantCulture),
            ["SLOTS_BOOK_DAY"] = later.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture),
        };

        // Rounds of the same booking load, without and with reminders going out, one after the other, so a drift of the
        // machine over the minutes touches both sides alike (one pair of windows moved the baseline's p99 between 28 and
        // 82 ms on the 2-core VM). The order turns each round (without first in odd rounds, during first in even ones): the
        // booking place's slots fill over the run, and a booked seat is one more row the next booking's seat search passes
        // over, so a fixed order would hand the later side the fuller slots. Every window follows a warm-up of 3 s.
        var windows = new List<ReminderWindow>();
        var offset = 0;
        for (var round = 1; round <= options.Rounds; round++)
        {
            foreach (var during in round % 2 == 1 ? [false, true] : new[] { true, false })
            {
                var before = await RemindersSetup.RemindedAsync(backend, own, ct);
                await using var api = await StartAsync(host, options, db, during, ct);
                offset += 100_000;
                await WrkAsync(host, api.Url, 3, offset, booking, Path.Combine(host.Work, "warm-up.txt"), ct);
                offset += 100_000;
                var output = Path.Combine(host.Work, $"{(during ? "during" : "without")}-{round}.txt");
                var window = Stopwatch.StartNew();
                double api0 = api.CpuSeconds(), machine0 = RemindersFigures.MachineBusySeconds(await File.ReadAllTextAsync("/proc/stat", ct));
                await WrkAsync(host, api.Url, options.Seconds, offset, booking, output, ct, latency: true);
                var seconds = window.Elapsed.TotalSeconds;
                double api1 = api.CpuSeconds(), machine1 = RemindersFigures.MachineBusySeconds(await File.ReadAllTextAsync("/proc/stat", ct));
                var after = await RemindersSetup.RemindedAsync(backend, own, ct);
                var text = await File.ReadAllTextAsync(output, ct);
                var booked = Math.Max(1, RemindersFigures.Booked(text) ?? throw new InvalidOperationException($"book.lua printed no count:\n{text}"));
                var figures = new ReminderWindow(round, during,
                    RemindersFigures.P99Milliseconds(text) ?? throw new InvalidOperationException($"wrk gave no 99% line:\n{text}"),
                    RemindersFigures.RequestsPerSecond(text) ?? throw new InvalidOperationException($"wrk gave no Requests/sec:\n{text}"),
                    after - before, seconds, (api1 - api0) * 1e6 / booked, (machine1 - machine0) * 1e6 / booked);
                windows.Add(figures);
                Console.WriteLine(figures.Line);
            }
        }
        var queued = await RemindersSetup.ReminderSmsAsync(backend, own, ct);
        var reminded = await RemindersSetup.RemindedAsync(backend, own, ct);
        var statements = pg ? await RemindersSetup.ReminderStatementsAsync(own, ct) : null;

        var summary = RemindersFigures.Summary(options, seeded, reminded, queued, windows, DateTimeOffset.UtcNow, Environment.ProcessorCount, statements);
        var results = Path.Combine(host.Root, "loadtest", "results", "reminders");
        Directory.CreateDirectory(results);
        await File.WriteAllTextAsync(Path.Combine(results, pg ? "summary-postgres.md" : "summary.md"), summary, ct);
        Console.Write(summary);
        return 0;
    }

    /// <summary>The instance of one window: SQLite in the run's folder, reminders due at once (local time 00:00) when on.</summary>
    private static Task<ApiInstance> StartAsync(BenchHost host, RemindersOptions o, string db, bool reminders, CancellationToken ct)
    {
        var env = BenchSecrets.ApiEnvironment(o.Backend.ToString(), db);
        env["Slots__RateLimits__WritesPerWindow"] = "10000000";
        env["Slots__RateLimits__ReadsPerWindow"] = "10000000";
        env["Slots__Frontend__Root"] = host.Work;
        env["Slots__Sms__File__Path"] = Path.Combine(host.Work, "sms.jsonl");
        // The instance runs the jobs (on PostgreSQL the scheduler host would; here it is this one process on the same cores).
        env["Slots__Scheduler__InProcess"] = "true";
        env["Slots__Reminders__Enabled"] = reminders ? "true" : "false";
        env["Slots__Reminders__LocalTime"] = "00:00";
        env["Slots__Reminders__PerSecond"] = o.Rate.ToString(CultureInfo.InvariantCulture);
        env["Slots__Reminders__Batch"] = o.Batch.ToString(CultureInfo.InvariantCulture);
        env["Slots__Scheduler__RemindersEvery"] = TimeSpan.FromSeconds(o.Every).ToString("c", CultureInfo.InvariantCulture);
        return ApiInstance.StartAsync(host.ApiDll, Path.Combine(host.Work, "api.log"), env, host.Split.Stack, ct);
    }

    /// <summary>wrk with book.lua for <paramref name="seconds"/>; each run books people from <paramref name="offset"/> on, never one seen before.</summary>
    private static async Task WrkAsync(BenchHost host, string url, int seconds, int offset, Dictionary<string, string> booking, string output, CancellationToken ct,
        bool latency = false)
    {
        var env = new Dictionary<string, string>(booking) { ["SLOTS_BOOK_OFFSET"] = offset.ToString(CultureInfo.InvariantCulture) };
        IReadOnlyList<string> command = [.. host.Split.Generator, "wrk", "-t", "2", "-c", "8", "-d", $"{seconds}s", .. latency ? ["--latency"] : Array.Empty<string>(),
            "-s", Book, $"{url}/api/reservations"];
        var code = await host.RunAsync(command, ct, output, env);
        if (code != 0)
        {
            throw new InvalidOperationException($"wrk exited with {code}:\n{await File.ReadAllTextAsync(output, ct)}");
        }
    }
}
