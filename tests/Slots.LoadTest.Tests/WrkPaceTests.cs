using Slots.LoadTest.Reporting;
using Slots.LoadTest.Simulation;
using Slots.Testing;

namespace Slots.LoadTest.Tests;

public sealed class WrkPaceTests
{
    private const string Report = """
        Running 10s test @ http://127.0.0.1:55080/api/places/500/availability?from=2026-12-02&to=2026-12-08
          1 threads and 32 connections
          Thread Stats   Avg      Stdev     Max   +/- Stdev
            Latency     1.09ms    1.46ms  22.42ms   96.11%
            Req/Sec    30.28k     6.17k   35.53k    90.00%
          Latency Distribution
             50%  795.00us
             75%    1.13ms
             90%    1.69ms
             99%  {0}
          300261 requests in 10.01s, 3.6GB read
          {1}
        Requests/sec:  29996.10
        Transfer/sec:    369.28MB
        """;

    [Theory]
    [InlineData("7.49ms", "", 7.49, 0)]
    [InlineData("912.00us", "Non-2xx or 3xx responses: 12", 0.91, 12)]
    [InlineData("1.20s", "", 1200, 0)]
    public void Wrks_report_gives_the_answers_the_seconds_the_p99_and_what_was_not_2xx(string p99, string non2xx, double p99Ms, long not2xx)
    {
        var api = ProcessStats.Of("api", 1, "Slots.Api", [200.0], 6.0, 10);

        var parsed = WrkPace.Parse(Report.Replace("{0}", p99).Replace("{1}", non2xx), 32, [api])!;

        Assert.Equal((32, 10.01, 300261L, 29996.1, p99Ms, not2xx), (parsed.Connections, parsed.Seconds, parsed.Answers, parsed.PerSecond, parsed.P99Ms, parsed.Non2xx));
        // 6 s of the API's CPU over the 2xx answers.
        Assert.Equal(Math.Round(6e6 / (300261 - not2xx), 1), parsed.ApiCpuMicrosPerAnswer);
    }

    [Fact]
    public void A_report_without_its_totals_or_its_p99_is_not_taken()
    {
        Assert.Null(WrkPace.Parse("unable to connect to 127.0.0.1:1 Connection refused", 32, []));
        Assert.Null(WrkPace.Parse(Report.Replace("     99%  {0}\n", "").Replace("{1}", ""), 32, []));
    }

    [Fact]
    public async Task Wrk_reads_the_api_and_the_apis_cpu_is_counted_per_answer()
    {
        if (!WrkPace.Installed)
        {
            Unavailable.SkipOrFail("wrk is not installed (apt-get install wrk; ./slots test installs it).");
        }
        await using var host = new ApiHost();
        var target = host.Start();

        var report = await WrkPace.RunAsync(new Uri(target, "/health/live"), 4, 2, [("api", Environment.ProcessId)], TestContext.Current.CancellationToken);

        Assert.NotNull(report);
        Assert.True(report.Answers > 100, $"{report.Answers} answers");
        Assert.Equal(0, report.Non2xx);
        Assert.True(report.ApiCpuMicrosPerAnswer > 0);
    }
}
