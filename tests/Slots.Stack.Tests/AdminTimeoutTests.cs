using System.Diagnostics;
using System.Net;
using System.Net.Http.Json;
using Slots.Stack.Tests.Infrastructure;

namespace Slots.Stack.Tests;

/// <summary>
/// An admin's bulk operation through HAProxy has a budget of its own (SLOTS_ADMIN_TIMEOUT, 5 min), not the booking path's
/// server timeout (SLOTS_SERVER_TIMEOUT, 15 s): a batch of 100,000 invitation codes on a busy instance took longer
/// than 15 s, and the proxy answered 504 while the instance went on writing the batch the admin never received.
/// </summary>
[Collection(SerialStackTests.Name)]
public sealed class AdminTimeoutTests(SharedApis shared)
{
    private static readonly TimeSpan BookingBudget = TimeSpan.FromMilliseconds(200);

    [Fact]
    public async Task An_invitation_batch_longer_than_the_booking_paths_budget_is_answered_through_the_proxy()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>
        {
            ["SLOTS_SERVER_TIMEOUT"] = $"{BookingBudget.TotalMilliseconds}ms",
        }, "admin-timeout", ct);
        using var admin = new HttpClient(haproxy.TrustingHandler()) { BaseAddress = haproxy.FrontAddress, Timeout = TimeSpan.FromMinutes(2) };
        admin.DefaultRequestHeaders.Add("X-Api-Key", StackProcesses.AdminKey);

        var took = Stopwatch.StartNew();
        using var issued = await admin.PostAsJsonAsync("/api/admin/services/default/invitations", new { label = "Teachers", size = 30_000 }, ct);
        var csv = await issued.Content.ReadAsStringAsync(ct);
        took.Stop();

        Assert.True(issued.StatusCode == HttpStatusCode.Created, $"{(int)issued.StatusCode}: {csv}");
        Assert.Equal(30_001, csv.Split("\r\n", StringSplitOptions.RemoveEmptyEntries).Length); // the header and every code
        // The batch outlasted the booking path's budget, so only its own budget let the answer through.
        Assert.True(took.Elapsed > BookingBudget, $"the batch took {took.Elapsed.TotalMilliseconds:F0} ms");
    }
}
