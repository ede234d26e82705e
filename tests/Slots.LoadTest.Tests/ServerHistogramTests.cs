using Slots.LoadTest.Data;
using Slots.LoadTest.Reporting;
using Slots.LoadTest.Simulation;
using static Slots.LoadTest.Tests.SmokeTests;

namespace Slots.LoadTest.Tests;

/// <summary>
/// Beside the project's other hosts: each host exports only the meters its own services made, so
/// another host stopping mid-run no longer takes this one's reservation series with it (once seen in
/// CI, when hosts listened by meter name; MetricsTests holds the case).
/// </summary>
public sealed class ServerHistogramTests
{
    [Fact]
    public async Task The_api_histogram_read_before_and_after_a_run_counts_every_booking_at_the_server()
    {
        await using var host = new ApiHost();
        var target = host.Start();
        var ct = TestContext.Current.CancellationToken;
        await Seeder.RunAsync(Provider.Sqlite, host.ConnectionString, Small, ct);

        var report = await Cli.SimulateAsync(Crowd(target, Endpoint.Reserve, Flow.Reserve), null, [], ct, new ServerWatch(null, [target]));

        Assert.True(report.Confirmed > 0, report.ToTable());
        Assert.Equal(ServerTimings.HistogramSource, report.Server!.Source);
        Assert.True(report.Server.Answers.ContainsKey("reserve reserved"), report.ToTable());
        Assert.Equal(report.Confirmed, report.Server.Answers["reserve reserved"].Count);
        Assert.InRange(report.Server.Answers["reserve reserved"].P99, 0.5, 10_000);
    }
}
