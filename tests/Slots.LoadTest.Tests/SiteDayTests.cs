using System.Security.Cryptography;
using Slots.LoadTest.Site;

namespace Slots.LoadTest.Tests;

/// <summary>The site's day against the real API host: every booking made, read on the roster, checked in once, and the next day cancelled as a block.</summary>
public sealed class SiteDayTests
{
    [Theory]
    [InlineData("0", 0)]
    [InlineData("1", 5)] // a place of the warm-up's own: 5 slots × max(1, 3 / 4) seats, each checked in before the measured ones
    public async Task A_small_site_day_books_checks_in_and_block_cancels_every_seat_with_a_staff_token(string warmupSeconds, int warmups)
    {
        var key = RandomNumberGenerator.GetBytes(32);
        await using var host = new ApiHost(settings: new Dictionary<string, string?>
        {
            ["Slots:Admin:Keys:bench:Key"] = AdminKey,
            ["Slots:Admin:Keys:bench:Role"] = "admin",
            ["Authentication:Schemes:Bearer:ValidIssuer"] = "slots-bench",
            ["Authentication:Schemes:Bearer:ValidAudiences:0"] = "slots-api",
            ["Authentication:Schemes:Bearer:SigningKeys:0:Issuer"] = "slots-bench",
            ["Authentication:Schemes:Bearer:SigningKeys:0:Value"] = Convert.ToBase64String(key),
        });
        var target = host.Start();
        var args = new Args(["--target", target.ToString(), "--admin-key", AdminKey, "--staff-signing-key", Convert.ToBase64String(key),
            "--seats", "3", "--seconds", "1", "--warmup-seconds", warmupSeconds, "--concurrency", "4", "--json", Path.Combine(host.Folder, "site.json")]);

        Assert.Equal(0, await SiteCommand.RunAsync(args, [], TestContext.Current.CancellationToken));

        var report = System.Text.Json.JsonSerializer.Deserialize<SiteReport>(File.ReadAllText(Path.Combine(host.Folder, "site.json")), Reporting.RunReport.Json)!;
        var line = SiteCommand.Line(report);
        Assert.Equal("staff bearer token", report.SignIn);
        Assert.Equal(15, report.Booked);                  // 5 slots × 3 seats
        Assert.True(report.Roster.Ok.Count > 0, line);
        Assert.Equal(0, report.Roster.NotOk);             // a token the API would not take answers 401 here
        Assert.Equal(15, report.CheckIn.Ok.Count);        // each code once
        Assert.Equal(0, report.CheckIn.NotOk);
        Assert.Equal(warmups, report.CheckInWarmups);
        Assert.Equal(new RosterCounts(0, 15, 0, 0), report.After);
        Assert.Equal(15, report.BlockBooked);
        Assert.Equal(15, report.Block.Cancelled);
        Assert.True(report.Block.Finished, line);
    }

    [Fact]
    public async Task A_signing_key_that_is_not_base64_of_32_bytes_is_refused_before_anything_is_sent()
    {
        var args = new Args(["--target", "http://127.0.0.1:9", "--admin-key", AdminKey, "--staff-signing-key", Convert.ToBase64String(new byte[16])]);

        Assert.Equal(2, await SiteCommand.RunAsync(args, [], TestContext.Current.CancellationToken));
        Assert.Contains(args.Errors, e => e.Contains("--staff-signing-key", StringComparison.Ordinal));
    }

    private const string AdminKey = "site-day-test-admin-key-0123456789";
}
