using System.Globalization;
using Slots.LoadTest.WaitingList;

namespace Slots.LoadTest.Tests;

/// <summary>The waiting list's run against the real API host, with the product's job interval: every cancelled seat offered, claimed or passed on.</summary>
public sealed class WaitingListRunTests
{
    [Fact]
    public async Task Every_cancelled_seat_is_offered_and_ends_booked_through_the_line_or_held_and_the_audit_passes()
    {
        await using var host = new ApiHost(settings: new Dictionary<string, string?>
        {
            ["Slots:Admin:Keys:bench:Key"] = AdminKey,
            ["Slots:Admin:Keys:bench:Role"] = "admin",
        });
        var target = host.Start();
        var json = Path.Combine(host.Folder, "waitlist.json");
        var args = new Args(["--target", target.ToString(), "--admin-key", AdminKey, "--line", "200", "--seconds", "3", "--settle-seconds", "60",
            "--json", json]);

        var exit = await WaitingListCommand.RunAsync(args, [], TestContext.Current.CancellationToken);

        var report = System.Text.Json.JsonSerializer.Deserialize<WaitingListReport>(File.ReadAllText(json), Reporting.RunReport.Json)!;
        var line = WaitingListCommand.Line(report);
        Assert.True(exit == 0, line);
        Assert.Equal(100, report.Cancelled);
        Assert.Equal(100, report.CancelToOffer.Count);             // each seat's first offer was seen
        Assert.True(report.Offered >= 100, line);
        Assert.Equal(report.Claimed, report.BookedAtEnd);
        Assert.Equal(100, report.Claimed + report.OffersOpenAtEnd);
        Assert.True(report.Declined > 0, line);                    // one in five passes the seat on: the path is taken
        Assert.Equal(0, report.HeldTwice);
        // The slowest claims, slowest first, each with its moment inside the run: the p99 is among them.
        Assert.Equal(Math.Min(5, report.Claimed), report.SlowestClaims.Count);
        Assert.Equal(report.SlowestClaims.OrderByDescending(c => c.Ms), report.SlowestClaims);
        Assert.True(report.SlowestClaims[0].Ms >= report.Claims.P99 - 0.05, line); // both rounded
        Assert.All(report.SlowestClaims, c => Assert.InRange(c.AtSeconds, 0, report.Seconds));
        Assert.Contains(string.Create(CultureInfo.InvariantCulture, $"the slowest {report.SlowestClaims[0].Ms:0.0} ms at"), line, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_run_without_an_admin_key_is_refused_before_anything_is_sent()
    {
        var args = new Args(["--target", "http://127.0.0.1:9"]);

        Assert.Equal(2, await WaitingListCommand.RunAsync(args, [], TestContext.Current.CancellationToken));
        Assert.Contains(args.Errors, e => e.Contains("--admin-key", StringComparison.Ordinal));
    }

    private const string AdminKey = "waitlist-test-admin-key-0123456789";
}
