using Slots.LoadTest.Data;
using Slots.LoadTest.Reporting;
using Slots.LoadTest.Simulation;
using static Slots.LoadTest.Tests.SmokeTests;

namespace Slots.LoadTest.Tests;

/// <summary>
/// Alone, not beside the other hosts of this project: OpenTelemetry listens to every meter named
/// Slots.* in the process, so another test's host of the same meter name was taken for a duplicate,
/// this host's reservation series went into that host's stream and left with it when that host
/// stopped, and the scrape after the run held no "reserve reserved" at all (seen once in CI). A
/// process holds one host in production.
/// </summary>
[CollectionDefinition(nameof(ServerHistogramTests), DisableParallelization = true)]
[Collection(nameof(ServerHistogramTests))]
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
