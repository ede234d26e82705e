using System.Globalization;
using System.Text;
using System.Text.Json;

namespace Slots.LoadTest.Reporting;

/// <summary>
/// The concurrency sweep (./slots bench --sweep; sweep/SCENARIO-USERS.json): no-op, baseline and real path at
/// several users in flight, each run on the seeded supply after a warm-up. Each path is judged by its best
/// figure whose p99 at the server is under 100 ms, so that one concurrency that suits one path and not the
/// other does not decide the ratios; the fixed-concurrency ratios stand beside them.
/// </summary>
public static class Sweep
{
    public const double P99BoundMs = 100;

    private static readonly (string Name, string Scenario, string Unit)[] Paths =
        [("no-op", "noop", "answers/s"), ("baseline (EF Core)", "baseline", "booked/s"), ("real path", "reserve", "booked/s")];

    /// <summary>One run of the sweep: its rate (answers/s for the no-op, bookings/s otherwise) and p99 of its successful answers.</summary>
    public sealed record Point(int Users, double Rate, double P99Ms, bool AtServer)
    {
        /// <summary>p99 under the bound; a histogram's bucket bound of exactly 100 ms counts (the true value is at or below it).</summary>
        public bool Within(bool bucketBound) => P99Ms < P99BoundMs || (bucketBound && P99Ms <= P99BoundMs);
    }

    public static string Markdown(string folder, RunReport? noop, RunReport? baseline, RunReport? real)
    {
        var dir = Path.Combine(folder, "sweep");
        if (!Directory.Exists(dir))
        {
            return "";
        }
        var runs = Directory.GetFiles(dir, "*.json")
            .Select(f => JsonSerializer.Deserialize<RunReport>(File.ReadAllText(f), RunReport.Json)!)
            .ToList();
        if (runs.Count == 0)
        {
            return "";
        }
        var inv = CultureInfo.InvariantCulture;
        var users = runs.Select(r => r.MaxInFlight).Distinct().Order().ToList();
        var md = new StringBuilder();
        md.AppendLine();
        md.AppendLine(inv, $"Concurrency sweep ({runs[0].DurationSeconds:0} s per run after a {runs[0].PrimeSeconds:0} s warm-up, each on the seeded supply; " +
            $"p99 of the successful answers at the server, or at the client where the server does not time them, marked *: an upper bound):");
        md.AppendLine();
        var columns = string.Join(" | ", users.Select(u => string.Create(inv, $"{u} users")));
        md.AppendLine(inv, $"| path | {columns} | best with p99 < {P99BoundMs:0} ms |");
        md.Append("|---|").Append(string.Concat(Enumerable.Repeat("---:|", users.Count + 1))).AppendLine();
        var best = new Dictionary<string, Point?>(StringComparer.Ordinal);
        foreach (var (name, scenario, unit) in Paths)
        {
            var points = runs.Where(r => r.Scenario == scenario).Select(Of).ToDictionary(p => p.Users);
            if (points.Count == 0)
            {
                continue;
            }
            var bucket = runs.Where(r => r.Scenario == scenario).ToDictionary(r => r.MaxInFlight, r => r.Server?.Source == ServerTimings.HistogramSource);
            var top = points.Values.Where(p => p.Within(bucket[p.Users])).MaxBy(p => p.Rate);
            best[scenario] = top;
            var cells = users.Select(u => points.TryGetValue(u, out var p)
                ? string.Create(inv, $"{p.Rate:N0} (p99 {p.P99Ms:0.0}{(p.AtServer ? "" : "*")})")
                : "—");
            var fastest = points.Values.MaxBy(p => p.Rate)!;
            var bestText = top is null
                ? string.Create(inv, $"none (fastest {fastest.Rate:N0} at {fastest.Users}, p99 {fastest.P99Ms:0.0} ms)")
                : string.Create(inv, $"**{top.Rate:N0}** at {top.Users}");
            md.AppendLine(inv, $"| {name}, {unit} | {string.Join(" | ", cells)} | {bestText} |");
        }
        md.AppendLine();
        string Ratio(string over, string under, RunReport? fixedOver, RunReport? fixedUnder, string format, string unit)
        {
            var sweep = best.GetValueOrDefault(over) is { } o && best.GetValueOrDefault(under) is { Rate: > 0 } u
                ? $"**{(o.Rate / u.Rate).ToString(format, inv)}{unit}**" : "— (a path without a run under the bound)";
            var fixedRatio = fixedOver is not null && fixedUnder is { GoodputPerSecond: > 0 }
                ? string.Create(inv, $" (at a fixed {fixedOver.MaxInFlight} users: {(fixedOver.GoodputPerSecond / fixedUnder.GoodputPerSecond).ToString(format, inv)}{unit})")
                : "";
            return sweep + fixedRatio;
        }
        md.AppendLine(inv, $"- best against best: real ÷ baseline {Ratio("reserve", "baseline", real, baseline, "0.00", "×")}; real ÷ no-op {Ratio("reserve", "noop", real, noop, "0.000", "")}");
        return md.ToString();
    }

    private static Point Of(RunReport r)
    {
        var rate = r.Endpoint == "noop" ? r.AnswersPerSecond : r.GoodputPerSecond;
        var server = r.Server?.Answers.Where(kv => kv.Key is "reserve 201" or "reserve 204" or "reserve reserved" && kv.Value.Count > 0).Select(kv => kv.Value.P99).ToList();
        if (server is { Count: > 0 })
        {
            return new Point(r.MaxInFlight, rate, server.Max(), AtServer: true);
        }
        var client = r.Latency.GetValueOrDefault("reserve 201") ?? r.Latency.GetValueOrDefault("reserve 204") ?? LatencyStats.Empty;
        return new Point(r.MaxInFlight, rate, client.P99, AtServer: false);
    }
}
