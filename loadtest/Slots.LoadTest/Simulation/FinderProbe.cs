using System.Diagnostics;
using System.Text.Json;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Simulation;

/// <summary>
/// A vaccine finder against the SMART Scheduling Links publication: the first (cold) full publication,
/// timed from the manifest's request until its last NDJSON file is read, then a poll of the manifest
/// every interval for a while with _since the publication it has, reading the files it lists (what changed)
/// whenever the manifest names a new publication, as a finder that wants every change does. What the polling costs the API is the watched processes'
/// CPU over the polling window less their CPU over an idle window just before it (its jobs and timers), both
/// from <see cref="ProcessSampler"/>.
/// </summary>
public static class FinderProbe
{
    public sealed record FinderReport(
        string Target,
        double ColdSeconds,
        int Files,
        long Bytes,
        long Locations,
        long Schedules,
        long Slots,
        int PollSeconds,
        int Polls,
        int Publications,
        long NotOk,
        LatencyStats Manifest,
        IReadOnlyList<ProcessStats> ColdProcesses,
        IReadOnlyList<ProcessStats> IdleProcesses,
        IReadOnlyList<ProcessStats> Processes);

    public static async Task<FinderReport> RunAsync(Uri target, HttpClient http, int seconds, TimeSpan interval,
        IReadOnlyList<(string Role, int Pid)> pids, CancellationToken ct)
    {
        var manifestUrl = new Uri(target, "/fhir/$bulk-publish");
        var cold = Stopwatch.StartNew();
        Publication first;
        IReadOnlyList<ProcessStats> coldProcesses;
        await using (var coldSampler = new ProcessSampler(pids))
        {
            coldSampler.Start();
            first = await ReadAllAsync(http, manifestUrl, ct);
            coldProcesses = await coldSampler.StopAsync();
        }
        var coldSeconds = cold.Elapsed.TotalSeconds;
        IReadOnlyList<ProcessStats> idleProcesses;
        await using (var idle = new ProcessSampler(pids))
        {
            idle.Start();
            await Task.Delay(TimeSpan.FromSeconds(Math.Min(seconds, 20)), ct);
            idleProcesses = await idle.StopAsync();
        }

        var latencies = new List<double>();
        long notOk = 0;
        var publications = 1;
        var seen = first.TransactionTime;
        await using var sampler = new ProcessSampler(pids);
        sampler.Start();
        var until = Stopwatch.StartNew();
        using var timer = new PeriodicTimer(interval);
        while (until.Elapsed.TotalSeconds < seconds && await timer.WaitForNextTickAsync(ct))
        {
            var sent = Stopwatch.GetTimestamp();
            // As the specification asks of a finder: only what changed since the publication it has.
            using var response = await http.GetAsync(new Uri(manifestUrl + "?_since=" + Uri.EscapeDataString(seen)), ct);
            var body = await response.Content.ReadAsByteArrayAsync(ct);
            latencies.Add(Stopwatch.GetElapsedTime(sent).TotalMilliseconds);
            if (!response.IsSuccessStatusCode)
            {
                notOk++;
                continue;
            }
            var manifest = Manifest.Parse(body);
            if (manifest.TransactionTime != seen)
            {
                seen = manifest.TransactionTime;
                publications++;
                await ReadFilesAsync(http, manifest, ct);
            }
        }
        var processes = await sampler.StopAsync();
        var stats = LatencyStats.Of(latencies);
        return new FinderReport(target.ToString(), Math.Round(coldSeconds, 2), first.Files, first.Bytes, first.Count("Location"),
            first.Count("Schedule"), first.Count("Slot"), seconds, latencies.Count, publications, notOk,
            new LatencyStats(stats.Count, Math.Round(stats.P50, 2), Math.Round(stats.P95, 2), Math.Round(stats.P99, 2), Math.Round(stats.Max, 2)),
            coldProcesses, idleProcesses, processes);
    }

    private sealed record Manifest(string TransactionTime, IReadOnlyList<(string Type, Uri Url)> Output)
    {
        public static Manifest Parse(byte[] body)
        {
            using var json = JsonDocument.Parse(body);
            var root = json.RootElement;
            var output = root.GetProperty("output").EnumerateArray()
                .Select(o => (o.GetProperty("type").GetString()!, new Uri(o.GetProperty("url").GetString()!)))
                .ToList();
            return new Manifest(root.GetProperty("transactionTime").GetString()!, output);
        }
    }

    private sealed record Publication(string TransactionTime, int Files, long Bytes, IReadOnlyDictionary<string, long> Lines)
    {
        public long Count(string type) => Lines.GetValueOrDefault(type);
    }

    private static async Task<Publication> ReadAllAsync(HttpClient http, Uri manifestUrl, CancellationToken ct)
    {
        using var response = await http.GetAsync(manifestUrl, ct);
        response.EnsureSuccessStatusCode();
        var manifest = Manifest.Parse(await response.Content.ReadAsByteArrayAsync(ct));
        var (bytes, lines) = await ReadFilesAsync(http, manifest, ct);
        return new Publication(manifest.TransactionTime, manifest.Output.Count, bytes, lines);
    }

    /// <summary>Every file of the manifest, streamed and counted (bytes, and lines: one resource each), not kept.</summary>
    private static async Task<(long Bytes, Dictionary<string, long> Lines)> ReadFilesAsync(HttpClient http, Manifest manifest, CancellationToken ct)
    {
        long bytes = 0;
        var lines = new Dictionary<string, long>(StringComparer.Ordinal);
        var buffer = new byte[81920];
        foreach (var (type, url) in manifest.Output)
        {
            using var response = await http.GetAsync(url, HttpCompletionOption.ResponseHeadersRead, ct);
            response.EnsureSuccessStatusCode();
            await using var stream = await response.Content.ReadAsStreamAsync(ct);
            int read;
            long n = 0;
            while ((read = await stream.ReadAsync(buffer, ct)) > 0)
            {
                bytes += read;
                n += buffer.AsSpan(0, read).Count((byte)'\n');
            }
            lines[type] = lines.GetValueOrDefault(type) + n;
        }
        return (bytes, lines);
    }
}
