namespace Slots.LoadTest.Reporting;

/// <summary>Latency at the server by answer ("reserve 201"), and where it was read.</summary>
public sealed record ServerLatency(string Source, IReadOnlyDictionary<string, LatencyStats> Answers);

/// <summary>Latency at the server over one run, from HAProxy's log when there is one, else from the API instances' histograms.</summary>
public sealed class ServerWatch
{
    private readonly string? _proxyLog;
    private readonly IReadOnlyList<Uri> _apis;
    private long _logStart;
    private Histograms? _before;

    /// <param name="proxyLog">HAProxy's log file (--proxy-log), or null.</param>
    /// <param name="apis">API instances to read /metrics from when there is no proxy log (--server-metrics), or none.</param>
    public ServerWatch(string? proxyLog, IReadOnlyList<Uri> apis)
    {
        _proxyLog = proxyLog;
        _apis = apis;
    }

    public static readonly ServerWatch None = new(null, []);

    public async Task StartAsync(CancellationToken ct)
    {
        if (_proxyLog is not null)
        {
            _logStart = ServerTimings.Mark(_proxyLog);
        }
        else if (_apis.Count > 0)
        {
            using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
            _before = await ServerTimings.ScrapeAsync(http, _apis, ct);
        }
    }

    /// <summary>The run's figures; null when nothing is watched.</summary>
    public async Task<ServerLatency?> StopAsync(CancellationToken ct)
    {
        if (_proxyLog is not null)
        {
            await Task.Delay(TimeSpan.FromSeconds(1), ct); // HAProxy writes a line when the answer has left
            return new(ServerTimings.ProxySource, await ServerTimings.FromProxyLogAsync(_proxyLog, _logStart, ct));
        }
        if (_before is not null)
        {
            await Task.Delay(TimeSpan.FromSeconds(1), ct); // the exporter serves a scrape cached for a moment
            using var http = new HttpClient { Timeout = TimeSpan.FromSeconds(10) };
            return new(ServerTimings.HistogramSource, ServerTimings.Between(_before, await ServerTimings.ScrapeAsync(http, _apis, ct)));
        }
        return null;
    }
}
