using System.Diagnostics;
using System.Globalization;

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
/// SLOTS_REM_RATE=1000000 SLOTS_REM_BATCH=1000 is the unthrottled worst case. The summary goes to
/// loadtest/results/reminders/summary.md.
/// </summary>
internal static class RemindersCommand
{
    public const string Usage = """
               Slots.LoadTest bench-reminders   (./slots bench reminders: 100,800 bookings reminded while others book, with wrk;
                   SLOTS_REM_SECONDS=15 SLOTS_REM_RATE=20 SLOTS_REM_BATCH=100 SLOTS_REM_ROUNDS=3; → loadtest/results/reminders/summary.md)
        """;

    private const string Book = "loadtest/reminders/book.lua";

    public static async Task<int> RunAsync(Args args, CancellationToken ct)
    {
        var options = RemindersOptions.From(Environment.GetEnvironmentVariable, args.Errors);
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
        var db = $"Data Source={Path.Combine(host.Work, "slots.db")}";
        // The benchmark's own reads and writes hold no pooled handle on the instance's file between windows.
        var own = db + ";Pooling=False";
        var (tomorrow, later) = RemindersFigures.Days(DateTimeOffset.UtcNow, TimeZoneInfo.FindSystemTimeZoneById("Europe/Bratislava"));
        int busy, fresh;
        await using (var api = await StartAsync(host, options, db, reminders: false, ct))
        {
            using var admin = new HttpClient { BaseAddress = new Uri(api.Url) };
            admin.DefaultRequestHeaders.Add("X-Api-Key", BenchSecrets.AdminKey);
            busy = await RemindersSetup.PlaceAsync(admin, "Očkovacie centrum Hlavná", ct);
            fresh = await RemindersSetup.PlaceAsync(admin, "Poliklinika Juh", ct);
            await RemindersSetup.SlotsAsync(admin, busy, tomorrow, 840, ct);
            await RemindersSetup.SlotsAsync(admin, fresh, later, 10_000, ct);
        }
        var seeded = await RemindersSetup.BookEverySeatAsync(own, busy, tomorrow, ct);
        var booking = new Dictionary<string, string>
        {
            ["SLOTS_BOOK_PLACE"] = fresh.ToString(CultureInfo.InvariantCulture),
            ["SLOTS_BOOK_DAY"] = later.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture),
        };

        // Rounds of the same booking load, without and with reminders going out, one after the other, so a drift of the
        // machine over the minutes touches both sides alike (one pair of windows moved the baseline's p99 between 28 and
        // 82 ms on the 2-core VM). Every window follows a warm-up of 3 s.
        var windows = new List<ReminderWindow>();
        var offset = 0;
        for (var round = 1; round <= options.Rounds; round++)
        {
            foreach (var during in new[] { false, true })
            {
                var before = await RemindersSetup.RemindedAsync(own, ct);
                await using var api = await StartAsync(host, options, db, during, ct);
                offset += 100_000;
                await WrkAsync(host, api.Url, 3, offset, booking, Path.Combine(host.Work, "warm-up.txt"), ct);
                offset += 100_000;
                var output = Path.Combine(host.Work, $"{(during ? "during" : "without")}-{round}.txt");
                var window = Stopwatch.StartNew();
                await WrkAsync(host, api.Url, options.Seconds, offset, booking, output, ct, latency: true);
                var seconds = window.Elapsed.TotalSeconds;
                var after = await RemindersSetup.RemindedAsync(own, ct);
                var text = await File.ReadAllTextAsync(output, ct);
                var figures = new ReminderWindow(round, during,
                    RemindersFigures.P99Milliseconds(text) ?? throw new InvalidOperationException($"wrk gave no 99% line:\n{text}"),
                    RemindersFigures.RequestsPerSecond(text) ?? throw new InvalidOperationException($"wrk gave no Requests/sec:\n{text}"),
                    after - before, seconds);
                windows.Add(figures);
                Console.WriteLine(figures.Line);
            }
        }
        var queued = await RemindersSetup.ReminderSmsAsync(own, ct);
        var reminded = await RemindersSetup.RemindedAsync(own, ct);

        var summary = RemindersFigures.Summary(options, seeded, reminded, queued, windows, DateTimeOffset.UtcNow, Environment.ProcessorCount);
        var results = Path.Combine(host.Root, "loadtest", "results", "reminders");
        Directory.CreateDirectory(results);
        await File.WriteAllTextAsync(Path.Combine(results, "summary.md"), summary, ct);
        Console.Write(summary);
        return 0;
    }

    /// <summary>The instance of one window: SQLite in the run's folder, reminders due at once (local time 00:00) when on.</summary>
    private static Task<ApiInstance> StartAsync(BenchHost host, RemindersOptions o, string db, bool reminders, CancellationToken ct)
    {
        var env = BenchSecrets.ApiEnvironment("Sqlite", db);
        env["Slots__RateLimits__WritesPerWindow"] = "10000000";
        env["Slots__RateLimits__ReadsPerWindow"] = "10000000";
        env["Slots__Frontend__Root"] = host.Work;
        env["Slots__Sms__File__Path"] = Path.Combine(host.Work, "sms.jsonl");
        env["Slots__Reminders__Enabled"] = reminders ? "true" : "false";
        env["Slots__Reminders__LocalTime"] = "00:00";
        env["Slots__Reminders__PerSecond"] = o.Rate.ToString(CultureInfo.InvariantCulture);
        env["Slots__Reminders__Batch"] = o.Batch.ToString(CultureInfo.InvariantCulture);
        env["Slots__Scheduler__RemindersEvery"] = "00:00:01";
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
