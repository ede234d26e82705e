using System.Diagnostics;
using System.Net;
using Slots.LoadTest.Reporting;

namespace Slots.LoadTest.Simulation;

public sealed record AvailabilityReport(string Target, int Requests, int Concurrency, int Days, int PlacesCycled,
    LatencyStats Ok, long NotOk, IReadOnlyDictionary<string, long> Errors, IReadOnlyList<ProcessStats> Processes)
{
    /// <summary>The same reads timed at the server, when the probe was told where to look.</summary>
    public ServerLatency? Server { get; init; }

    /// <summary>CPU of the watched API processes per answered read, in µs; null when none was watched or nothing answered.</summary>
    public double? ApiCpuMicrosPerAnswer => ProcessCpu.ApiMicrosPerAnswer(Processes, Ok.Count);

    /// <summary>The first place's read again at wrk's pace, when asked (<c>--then-wrk-seconds</c>) and wrk is there.</summary>
    public WrkPaceReport? AtWrkPace { get; init; }
}

/// <summary>
/// The week view's cost at the API: GET availability for 7 days at one place, a bounded number of
/// requests at a fixed concurrency. Every place cycled, so no page stays in the API's kept answers
/// (each read asks the database or builds its answer), or the first <c>places</c> of them only: one
/// place is a crowd reading the same week, what a stampede's readers mostly get (kept answers).
/// </summary>
public static class AvailabilityProbe
{
    /// <summary>A place's <paramref name="days"/> from tomorrow in the catalog's today.</summary>
    public static Uri WeekUrl(Uri target, Catalog catalog, int placeId, int days) =>
        new(target, $"/api/places/{placeId}/availability?from={Catalog.Day(catalog.Today.AddDays(1))}&to={Catalog.Day(catalog.Today.AddDays(days))}");

    public static async Task<AvailabilityReport> RunAsync(Uri target, Catalog catalog, SourceAddresses sources, int requests, int concurrency, int days, TimeSpan timeout, CancellationToken ct, int placesToCycle = 0, TimeSpan warmup = default, Func<Task>? measuring = null)
    {
        var recorder = new Recorder();
        long next = -1;
        var places = placesToCycle > 0 ? catalog.Places.Take(placesToCycle).ToList() : catalog.Places;
        Uri Url(long n) => WeekUrl(target, catalog, places[(int)(n * 7919 % places.Count)].Id, days);
        // Warm-up: the first requests open connections and JIT the path; they are not counted. Fifty in a row,
        // or the same reads at the same concurrency for warmup's length (a process started moments ago
        // spends seconds of CPU compiling its hot methods again: that is not what an answer costs).
        using (var warmLimit = CancellationTokenSource.CreateLinkedTokenSource(ct))
        {
            warmLimit.CancelAfter(warmup > TimeSpan.Zero ? warmup : timeout * 5);
            if (warmup > TimeSpan.Zero)
            {
                long w = -1;
                await Task.WhenAll(Enumerable.Range(0, concurrency).Select(_ => Task.Run(async () =>
                {
                    while (!warmLimit.IsCancellationRequested)
                    {
                        var n = Interlocked.Increment(ref w);
                        try
                        {
                            using var warm = await sources.For(n).GetAsync(Url(n), warmLimit.Token);
                        }
                        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
                        {
                            // the warm-up's end
                        }
                    }
                }, ct)));
            }
            else
            {
                for (var i = 0; i < Math.Min(50, requests); i++)
                {
                    using var warm = await sources.For(i).GetAsync(Url(i), warmLimit.Token);
                }
            }
        }
        // What watches the run (CPU, the server's histograms) starts here, after the warm-up.
        await (measuring?.Invoke() ?? Task.CompletedTask);
        var workers = Enumerable.Range(0, concurrency).Select(_ => Task.Run(async () =>
        {
            long n;
            while ((n = Interlocked.Increment(ref next)) < requests)
            {
                using var limit = CancellationTokenSource.CreateLinkedTokenSource(ct);
                limit.CancelAfter(timeout);
                var sent = Stopwatch.GetTimestamp();
                try
                {
                    using var response = await sources.For(n).GetAsync(Url(n), limit.Token);
                    await response.Content.ReadAsByteArrayAsync(limit.Token);
                    recorder.Answer("availability", (int)response.StatusCode, Stopwatch.GetElapsedTime(sent));
                }
                catch (OperationCanceledException) when (!ct.IsCancellationRequested)
                {
                    recorder.Failure("availability", "timeout");
                }
                catch (HttpRequestException ex)
                {
                    recorder.Failure("availability", $"no answer: {ex.HttpRequestError}");
                }
            }
        }, ct));
        await Task.WhenAll(workers);
        var latencies = recorder.Latencies;
        var ok = latencies.TryGetValue($"availability {(int)HttpStatusCode.OK}", out var samples) ? samples : [];
        var stats = LatencyStats.Of(ok);
        return new AvailabilityReport(target.ToString(), requests, concurrency, days, places.Count,
            new LatencyStats(stats.Count, Math.Round(stats.P50, 2), Math.Round(stats.P95, 2), Math.Round(stats.P99, 2), Math.Round(stats.Max, 2)),
            latencies.Where(kv => kv.Key != "availability 200").Sum(kv => (long)kv.Value.Count),
            recorder.Errors, []);
    }
}
