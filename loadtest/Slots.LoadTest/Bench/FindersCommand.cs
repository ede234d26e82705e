using System.Diagnostics;
using System.Globalization;
using Slots.LoadTest.Data;

namespace Slots.LoadTest.Bench;

/// <summary>
/// Slots.LoadTest bench-finders (./slots bench finders): what vaccine finders cost (issue 41). The first SMART Scheduling
/// Links publication at the benchmark's size (1,000 places × 30 days × 34 times × 5 seats, seeded by Slots.LoadTest seed),
/// then the same booking crowd twice for SLOTS_FINDERS_SECONDS (the real path's shape: 16 users, 80 % on 50 places' first
/// 7 days), once with a finder polling the manifest every second and reading each new publication's changes (_since the
/// one before; it read the first one whole before), once without; the API's CPU per decided answer in each.
/// SLOTS_FINDERS_PERF=FILE also records the API with perf over the window with the finder and prints the publication's
/// frames' share of the API's samples: the A/B difference is within the noise of a two-core VM, the frames are not.
/// </summary>
internal static class FindersCommand
{
    public const string Usage = """
               Slots.LoadTest bench-finders [--backend postgres|sqlite]   (./slots bench finders: the first finder publication, then a booking
                   crowd with and without a finder polling; SLOTS_FINDERS_SECONDS=70, SLOTS_FINDERS_PERF=FILE records the API with perf)
        """;

    public static async Task<int> RunAsync(Args args, CancellationToken ct)
    {
        var o = FindersOptions.From(args, Environment.GetEnvironmentVariable);
        args.RejectUnknown();
        if (args.Errors.Count > 0)
        {
            return Cli.Fail(args.Errors);
        }
        await using var host = BenchHost.Open("finders", CpuSplit.Shared(Environment.ProcessorCount));
        if (!File.Exists(host.ApiDll))
        {
            throw new InvalidOperationException($"No Release API at {host.ApiDll}: ./slots bench finders builds it.");
        }
        string db;
        if (o.Backend == Provider.Postgres)
        {
            var pg = host.Own(await OwnPostgres.StartAsync(host.Work, ["max_connections=200", "shared_buffers=512MB"], host.Split.Stack));
            db = pg.ConnectionString(";Maximum Pool Size=20");
        }
        else
        {
            db = $"Data Source={Path.Combine(host.Work, "slots.db")}";
        }
        var env = BenchSecrets.ApiEnvironment(o.Backend.ToString(), db);
        env["Slots__RateLimits__WritesPerWindow"] = "100000000";
        env["Slots__RateLimits__ReadsPerWindow"] = "100000000";
        env["Slots__Finders__Folder"] = host.Work;
        // The publisher's line of each publication is read from the log below; perf resolves JIT-ed frames by the perf map.
        env["Logging__LogLevel__Slots.Api.Finders.Publisher"] = "Information";
        env["DOTNET_PerfMapEnabled"] = "1";
        env["DOTNET_EnableWriteXorExecute"] = "0";
        var log = Path.Combine(host.Work, "api.log");

        await using (await ApiInstance.StartAsync(host.ApiDll, log, env, host.Split.Stack, ct)) // creates the schema
        {
            var seedLog = Path.Combine(host.Work, "seed.log");
            await host.MustGeneratorAsync(["seed", "--provider", o.ProviderName, "--connection", db, "--places", "1000"], seedLog, ct);
            Console.WriteLine(File.ReadLines(seedLog).LastOrDefault(l => l.Length > 0));
        }
        // A fresh process: its memory is the publication's.
        await using var api = await ApiInstance.StartAsync(host.ApiDll, log, env, host.Split.Stack, ct);
        // The first publication of a whole campaign may take a while: the client waits for it as a finder would.
        using var http = new HttpClient { BaseAddress = new Uri(api.Url), Timeout = TimeSpan.FromMinutes(5) };
        var inv = CultureInfo.InvariantCulture;
        var cpu = api.CpuSeconds();
        var clock = Stopwatch.StartNew();
        using (var cold = await http.GetAsync("/fhir/$bulk-publish", ct))
        {
            await cold.Content.ReadAsByteArrayAsync(ct);
            Console.WriteLine(string.Create(inv, $"first publication: manifest {(int)cold.StatusCode} after {clock.Elapsed.TotalSeconds:0.000} s"));
        }
        Console.WriteLine(string.Create(inv, $"API CPU for it: {api.CpuSeconds() - cpu:0.00} s; memory {PeakMemory(api.Pid)}"));

        // The finder reads the whole first publication once; afterwards it asks only for what changed since the one it has.
        var first = FindersManifest.Parse(await http.GetStringAsync("/fhir/$bulk-publish", ct));
        cpu = api.CpuSeconds();
        clock.Restart();
        await ReadAsync(http, first, ct);
        Console.WriteLine(string.Create(inv, $"reading it whole: {clock.Elapsed.TotalSeconds:0.00} s, API CPU {api.CpuSeconds() - cpu:0.00} s"));

        await CrowdAsync(host, o, api, http, db, first.TransactionTime, "with-finder", finder: true, ct);
        await CrowdAsync(host, o, api, http, db, first.TransactionTime, "without-finder", finder: false, ct);
        foreach (var line in FindersFigures.Publications(File.ReadLines(log)))
        {
            Console.WriteLine(line);
        }
        if (o.Perf is not null)
        {
            var report = Path.Combine(host.Work, "perf-report.txt");
            await host.RunAsync(["perf", "report", "-i", o.Perf, "--children", "--sort", "symbol", "--stdio", "-g", "none"], ct, report);
            Console.WriteLine("the publication's frames in the API's samples with the finder (perf report --children; they nest, so not a sum):");
            foreach (var frame in FindersFigures.PublicationFrames(File.ReadLines(report)))
            {
                Console.WriteLine(frame);
            }
        }
        return 0;
    }

    /// <summary>
    /// The booking crowd for the run's seconds from the seeded supply, a finder polling meanwhile when <paramref name="finder"/>;
    /// the API's CPU per decided answer.
    /// </summary>
    private static async Task CrowdAsync(BenchHost host, FindersOptions o, ApiInstance api, HttpClient http, string db, string since, string label, bool finder,
        CancellationToken ct)
    {
        await host.MustGeneratorAsync(["reset", "--provider", o.ProviderName, "--connection", db], Path.Combine(host.Work, $"{label}-reset.log"), ct);
        await Task.Delay(TimeSpan.FromSeconds(2), ct);
        var table = Path.Combine(host.Work, $"{label}.log");
        var cpu = api.CpuSeconds();
        var load = host.GeneratorAsync(["run", "--target", api.Url, "--scenario", "real", "--endpoint", "reserve", "--flow", "reserve", "--mode", "closed",
            "--max-in-flight", "16", "--duration", o.Seconds.ToString(CultureInfo.InvariantCulture), "--prime-seconds", "0", "--hot-places", "50", "--hot-days", "7",
            "--seed", "7", "--json", Path.Combine(host.Work, $"{label}.json")], ct, table);
        var perf = finder && o.Perf is not null
            ? host.RunAsync(["perf", "record", "-e", "cpu-clock", "-F", "499", "-g", "-p", api.Pid.ToString(CultureInfo.InvariantCulture), "-o", o.Perf,
                "--", "sleep", o.Seconds.ToString(CultureInfo.InvariantCulture)], ct, Path.Combine(host.Work, "perf-record.log"))
            : Task.FromResult(0);
        while (finder && !load.IsCompleted)
        {
            var manifest = FindersManifest.Parse(await http.GetStringAsync($"/fhir/$bulk-publish?_since={Uri.EscapeDataString(since)}", ct));
            await ReadAsync(http, manifest, ct);
            since = manifest.TransactionTime;
            await Task.WhenAny(load, Task.Delay(TimeSpan.FromSeconds(1), ct));
        }
        if (await load != 0)
        {
            throw new InvalidOperationException($"The crowd ({label}) failed:\n{string.Join('\n', File.ReadLines(table).TakeLast(20))}");
        }
        await perf;
        var used = api.CpuSeconds() - cpu;
        var decided = FindersFigures.DecidedAnswers(File.ReadLines(table));
        var each = FindersFigures.MicrosPerAnswer(used, decided) is { } us ? string.Create(CultureInfo.InvariantCulture, $"{us:0.0} µs each") : "nothing decided";
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{label}: API CPU {used:0.00} s for {decided} decided answers = {each}"));
    }

    /// <summary>Every file of a publication read to its end, as a finder does; a file that is not there is a failure.</summary>
    private static async Task ReadAsync(HttpClient http, FindersManifest manifest, CancellationToken ct)
    {
        foreach (var file in manifest.Files)
        {
            using var answer = await http.GetAsync(new Uri(file, UriKind.RelativeOrAbsolute), HttpCompletionOption.ResponseHeadersRead, ct);
            answer.EnsureSuccessStatusCode();
            await answer.Content.CopyToAsync(Stream.Null, ct);
        }
    }

    /// <summary>This program with another verb, its output in <paramref name="output"/>; a failure ends the run.</summary>
    /// <summary>The API's peak resident memory, as /proc/PID/status gives it ("VmHWM: 123456 kB").</summary>
    private static string PeakMemory(int pid) =>
        File.ReadLines($"/proc/{pid}/status").FirstOrDefault(l => l.StartsWith("VmHWM", StringComparison.Ordinal)) is { } line
            ? string.Join(' ', line.Split([' ', '\t'], StringSplitOptions.RemoveEmptyEntries))
            : "unknown";
}
