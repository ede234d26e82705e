using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The yardstick for the generator: wrk on the no-op, warmed up, with as many connections as the crowd has users, split
/// over the targets (one single-threaded wrk per target, at once). The summary divides the generator's no-op by it.
/// </summary>
internal static class Calibration
{
    public static async Task RunAsync(BenchHost host, BenchOptions options, string target, string results, CancellationToken ct)
    {
        if (!BenchHost.OnPath("wrk"))
        {
            Console.WriteLine("   wrk not found (apt-get install wrk): no calibration");
            return;
        }
        var urls = target.Split(',');
        var per = (options.Concurrency + urls.Length - 1) / urls.Length;
        var script = Path.Combine(host.Root, "loadtest", "calibration", "noop.lua");
        List<string> measured = [];
        foreach (var (phase, seconds) in new[] { ("warm", options.Warmup), ("measured", options.Duration) })
        {
            if (seconds == 0)
            {
                continue;
            }
            var files = urls.Select((_, i) => Path.Combine(host.Work, $"wrk-{phase}-{i}.txt")).ToList();
            await Task.WhenAll(urls.Select((url, i) => host.RunAsync(
                [.. host.Split.Generator, "wrk", "-t1", $"-c{per}", $"-d{seconds}s", "-s", script, $"{url}/api/benchmark/noop"], ct, files[i])));
            if (phase == "measured")
            {
                measured = files;
            }
        }
        var figures = measured.SelectMany(File.ReadLines).Where(l => l.StartsWith("calibration ", StringComparison.Ordinal))
            .Select(l => JsonNode.Parse(l["calibration ".Length..])!.AsObject()).ToList();
        var summary = Summarize(figures, per, options.Warmup);
        await File.WriteAllTextAsync(Path.Combine(results, "calibration.json"), summary.ToJsonString(new JsonSerializerOptions { WriteIndented = true }), ct);
        Console.WriteLine($"   wrk: {summary["answersPerSecond"]} answers/s, {summary["connections"]} connections, p99 {summary["p99Ms"]} ms, non-2xx {summary["non2xx"]}");
    }

    /// <summary>One figure from each wrk's "calibration {…}" line: answers per second summed, latencies at their worst.</summary>
    internal static JsonObject Summarize(IReadOnlyList<JsonObject> runs, int perTarget, int warmup)
    {
        double Get(JsonObject o, string name) => double.Parse(o[name]!.ToJsonString(), CultureInfo.InvariantCulture);
        return new JsonObject
        {
            ["tool"] = "wrk",
            ["answersPerSecond"] = Math.Round(runs.Sum(r => Get(r, "requests") / Get(r, "seconds")), 1),
            ["connections"] = perTarget * runs.Count,
            ["seconds"] = runs.Count == 0 ? 0 : runs.Max(r => Get(r, "seconds")),
            ["warmupSeconds"] = warmup,
            ["targets"] = runs.Count,
            ["threads"] = runs.Count,
            ["p50Ms"] = runs.Count == 0 ? 0 : runs.Max(r => Get(r, "p50Ms")),
            ["p99Ms"] = runs.Count == 0 ? 0 : runs.Max(r => Get(r, "p99Ms")),
            ["maxMs"] = runs.Count == 0 ? 0 : runs.Max(r => Get(r, "maxMs")),
            ["non2xx"] = runs.Sum(r => Get(r, "non2xx")),
            ["socketErrors"] = runs.Sum(r => Get(r, "socketErrors")),
        };
    }
}
