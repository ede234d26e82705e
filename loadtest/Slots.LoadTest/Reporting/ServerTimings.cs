using System.Globalization;
using System.Text.RegularExpressions;

namespace Slots.LoadTest.Reporting;

/// <summary>
/// Latency at the server, apart from the generator's own queueing on a shared machine. Two sources:
/// <list type="bullet">
/// <item>HAProxy's log (<c>option httplog</c>): Ta of every request, from its arrival at the proxy
/// to the last byte of its answer: the proxy's queue, the API and the database included, the
/// proxy's own answers (429, cache hits) too. Exact percentiles.</item>
/// <item>Each API instance's <c>slots.api.reservation.duration</c> and <c>slots.api.availability.duration</c>
/// histograms at /metrics, read before and after the run: the API's handling of a reservation by
/// outcome ("reserve reserved"), and of an availability read ("availability kept" when an earlier
/// answer's bytes served, "availability built"), without Kestrel's accept queue or the rate limiter.
/// Percentiles are the upper bound of the bucket they fall in.</item>
/// </list>
/// </summary>
public static partial class ServerTimings
{
    public const string ProxySource = "HAProxy log, Ta (request in to answer out)";
    public const string HistogramSource = "API histograms slots.api.reservation.duration and slots.api.availability.duration (bucket upper bounds)";

    /// <summary>Where the log ends now: the run's lines are the ones after it.</summary>
    public static long Mark(string logPath) => File.Exists(logPath) ? new FileInfo(logPath).Length : 0;

    /// <summary>The run's requests by "kind status" ("reserve 201"), with " at the proxy" when HAProxy answered itself.</summary>
    public static async Task<IReadOnlyDictionary<string, LatencyStats>> FromProxyLogAsync(string logPath, long from, CancellationToken ct)
    {
        var samples = new Dictionary<string, List<double>>(StringComparer.Ordinal);
        await using (var file = new FileStream(logPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete))
        {
            // A log shorter than the mark was started again (a restarted stack): all of it is the run's.
            file.Seek(file.Length < from ? 0 : from, SeekOrigin.Begin);
            using var reader = new StreamReader(file);
            while (await reader.ReadLineAsync(ct) is { } line)
            {
                if (ParseProxyLine(line) is var (key, ms))
                {
                    (samples.TryGetValue(key, out var list) ? list : samples[key] = []).Add(ms);
                }
            }
        }
        return Stats(samples.ToDictionary(kv => kv.Key, kv => LatencyStats.Of(kv.Value)));
    }

    /// <summary>One httplog line: its kind, status and Ta in ms; null for lines that are not a request to the API (stats page, errors before a request).</summary>
    public static (string Key, double Ms)? ParseProxyLine(string line)
    {
        var m = ProxyLine().Match(line);
        if (!m.Success || m.Groups["backend"].Value == "stats" || !double.TryParse(m.Groups["ta"].ValueSpan, NumberStyles.Integer, CultureInfo.InvariantCulture, out var ta) || ta < 0)
        {
            return null;
        }
        var kind = Kind(m.Groups["method"].Value, OriginForm(m.Groups["path"].Value));
        var byProxy = m.Groups["server"].Value.StartsWith('<') ? " at the proxy" : "";
        return ($"{kind} {m.Groups["status"].Value}{byProxy}", ta);
    }

    /// <summary>
    /// The path and query of a logged target: HAProxy logs an HTTP/2 request (ALPN h2 on its HTTPS front)
    /// with the absolute URI it was given (https://host:port/path), an HTTP/1.1 one as sent (/path).
    /// </summary>
    public static string OriginForm(string target)
    {
        var scheme = target.IndexOf("://", StringComparison.Ordinal);
        if (scheme < 0)
        {
            return target;
        }
        var path = target.IndexOf('/', scheme + 3);
        return path < 0 ? "/" : target[path..];
    }

    /// <summary>The generator's names for what it asks (the client-side keys of RunReport.Latency).</summary>
    public static string Kind(string method, string path)
    {
        var query = path.IndexOf('?', StringComparison.Ordinal);
        var p = query < 0 ? path : path[..query];
        return p switch
        {
            "/api/reservations" or "/api/benchmark/reservations" or "/api/benchmark/noop" when method == "POST" => "reserve",
            _ when p.EndsWith("/availability", StringComparison.Ordinal) => "availability",
            _ when p.StartsWith("/api/waiting-room/status", StringComparison.Ordinal) => "status",
            _ when p.StartsWith("/api/waiting-room/openings/", StringComparison.Ordinal) && method == "POST" => "join",
            _ => "other",
        };
    }

    // %ci:%cp [%tr] %ft %b/%s %TR/%Tw/%Tc/%Tr/%Ta %ST %B … "%r"
    [GeneratedRegex("""^\S+ \[[^\]]+\] \S+ (?<backend>[^/\s]+)/(?<server>\S+) -?\d+/-?\d+/-?\d+/-?\d+/\+?(?<ta>-?\d+) (?<status>\d{3}) .*"(?<method>[A-Z]+) (?<path>\S+)""")]
    private static partial Regex ProxyLine();

    /// <summary>Cumulative bucket counts of the reservation and availability histograms, summed over the instances, by "operation outcome".</summary>
    public static async Task<Histograms> ScrapeAsync(HttpClient http, IReadOnlyList<Uri> apis, CancellationToken ct)
    {
        var all = new Histograms();
        foreach (var api in apis)
        {
            all.Add(ParseMetrics(await http.GetStringAsync(new Uri(api, "/metrics"), ct)));
        }
        return all;
    }

    public static Histograms ParseMetrics(string text)
    {
        var h = new Histograms();
        foreach (var line in text.AsSpan().EnumerateLines())
        {
            var m = BucketLine().Match(line.ToString());
            if (m.Success)
            {
                var bound = m.Groups["le"].Value == "+Inf" ? double.PositiveInfinity : double.Parse(m.Groups["le"].Value, CultureInfo.InvariantCulture);
                h.Add($"{m.Groups["operation"].Value} {m.Groups["outcome"].Value}", bound, long.Parse(m.Groups["n"].Value, CultureInfo.InvariantCulture));
            }
        }
        return h;
    }

    // slots_api_reservation_duration_seconds_bucket{operation="reserve",outcome="reserved",…,le="0.1"} 42 [timestamp]
    // slots_api_availability_duration_seconds_bucket{operation="availability",outcome="kept",…,le="0.001"} 7 [timestamp]
    [GeneratedRegex("""^slots_api_(?:reservation|availability)_duration_seconds_bucket\{(?=[^}]*operation="(?<operation>[^"]+)")(?=[^}]*outcome="(?<outcome>[^"]+)")(?=[^}]*le="(?<le>[^"]+)")[^}]*\} (?<n>\d+)""")]
    private static partial Regex BucketLine();

    /// <summary>What the run added: after minus before, as percentiles in ms (each the upper bound of its bucket).</summary>
    public static IReadOnlyDictionary<string, LatencyStats> Between(Histograms before, Histograms after) =>
        Stats(after.Keys.Select(k => (Key: k, Stats: after.Since(before, k))).Where(s => s.Stats.Count > 0).ToDictionary(s => s.Key, s => s.Stats));

    private static Dictionary<string, LatencyStats> Stats(Dictionary<string, LatencyStats> byKey) =>
        byKey.OrderBy(kv => kv.Key, StringComparer.Ordinal).ToDictionary(kv => kv.Key, kv => kv.Value.Rounded());
}

/// <summary>Cumulative bucket counts (le → count) per series key.</summary>
public sealed class Histograms
{
    private readonly Dictionary<string, SortedDictionary<double, long>> _series = new(StringComparer.Ordinal);

    public IEnumerable<string> Keys => _series.Keys;

    public void Add(string key, double upperBound, long cumulative)
    {
        var buckets = _series.TryGetValue(key, out var b) ? b : _series[key] = [];
        buckets[upperBound] = buckets.GetValueOrDefault(upperBound) + cumulative;
    }

    public void Add(Histograms other)
    {
        foreach (var (key, buckets) in other._series)
        {
            foreach (var (bound, n) in buckets)
            {
                Add(key, bound, n);
            }
        }
    }

    /// <summary>The observations between two scrapes of one series: each percentile is the upper bound (ms) of the first bucket that holds it.</summary>
    public LatencyStats Since(Histograms before, string key)
    {
        var after = _series[key];
        var earlier = before._series.GetValueOrDefault(key);
        var bounds = after.Keys.ToArray();
        var counts = bounds.Select(b => after[b] - (earlier?.GetValueOrDefault(b) ?? 0)).ToArray();
        var total = counts.Length == 0 ? 0 : counts[^1];
        if (total <= 0)
        {
            return LatencyStats.Empty;
        }
        double At(double p)
        {
            var rank = (long)Math.Ceiling(p / 100.0 * total);
            var i = Array.FindIndex(counts, c => c >= rank);
            return bounds[i] * 1000;
        }
        return new LatencyStats(total, At(50), At(95), At(99), At(100));
    }
}
