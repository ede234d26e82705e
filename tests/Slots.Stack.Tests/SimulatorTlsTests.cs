using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>
/// The benchmark's reads on the stack go through HAProxy over HTTPS, trusting the stack's local CA (SLOTS_TLS_CA) as the
/// crowd does: the finder, the site's day and the waiting list once made their clients without it, and `./slots bench
/// --stack` stopped at the finder with "The SSL connection could not be established".
/// </summary>
[Collection(SerialStackTests.Name)]
public sealed class SimulatorTlsTests
{
    [Fact]
    public async Task The_finder_the_sites_day_and_the_waiting_list_run_through_HAProxy_over_HTTPS_trusting_the_local_CA()
    {
        StackProcesses.SkipWithoutHaproxy();
        var ct = TestContext.Current.CancellationToken;
        var server = await StackProcesses.SharedPostgresOrSkipAsync();
        var connectionString = await server.CreateDatabaseAsync("tls" + Guid.NewGuid().ToString("N")[..12], ct);
        // The waiting list's offers are scheduler jobs: this one instance runs them.
        var settings = new Dictionary<string, string>(StackProcesses.ApiSettings(connectionString)) { ["Slots:Scheduler:InProcess"] = "true" };
        await using var api = await ApiProcess.StartAsync(settings, StackProcesses.LogFolder, "simulator-tls", ct);
        await using var haproxy = await StackProcesses.StartHaproxyAsync([api], new Dictionary<string, string>
        {
            ["SLOTS_RATE_WRITES"] = "100000",
            ["SLOTS_RATE_READS"] = "100000",
        }, "simulator-tls", ct);
        await Places.CreateAsync([api], capacity: 5);
        var target = haproxy.FrontAddress.ToString().TrimEnd('/');
        var trusting = new Dictionary<string, string> { ["SLOTS_TLS_CA"] = haproxy.CaPath };

        var finder = await Scripts.SimulatorAsync(["finder", "--target", target, "--seconds", "2", "--interval", "1"], trusting, ct);
        var site = await Scripts.SimulatorAsync(["site", "--target", target, "--admin-key", StackProcesses.AdminKey, "--seats", "4",
            "--seconds", "1", "--warmup-seconds", "0"], trusting, ct);
        var waitlist = await Scripts.SimulatorAsync(["waitlist", "--target", target, "--admin-key", StackProcesses.AdminKey, "--line", "1000",
            "--seconds", "5", "--settle-seconds", "30"], trusting, ct);

        Assert.True(finder.ExitCode == 0, $"finder: {finder.Output}{finder.Errors}");
        Assert.Contains("== finder: the first publication", finder.Output);
        Assert.True(site.ExitCode == 0, $"site: {site.Output}{site.Errors}");
        Assert.True(waitlist.ExitCode == 0, $"waitlist: {waitlist.Output}{waitlist.Errors}");
    }
}
