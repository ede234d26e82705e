using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using Microsoft.Extensions.DependencyInjection;
using Slots.Api.Tests.Api;
using Slots.Staff;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Staff;

/// <summary>
/// The admin screens sign in through the provider like the staff screens: a bearer token's role
/// claim decides, admin for every admin endpoint, viewer for the ones that only read.
/// </summary>
public sealed class AdminTokenTests : ApiTestBase
{
    private readonly StaffTokens _tokens = new();

    private async Task<Func<string, HttpClient>> StartWithTokensAsync()
    {
        var host = await StartAsync(_tokens.Settings);
        return role =>
        {
            var client = host.Client();
            client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _tokens.For($"{role}-1", role));
            return client;
        };
    }

    [Fact]
    public async Task An_admin_token_creates_a_place_generates_slots_and_announces_an_opening()
    {
        var admin = (await StartWithTokensAsync())("admin");

        var place = await admin.PostAsJsonAsync("/api/admin/places",
            new { name = "Poliklinika Token", address = "Nám. 1, Nitra", region = "Nitriansky kraj", timeZone = "Europe/Bratislava" });
        var id = (await JsonAsync(place))["id"]!.GetValue<int>();
        var generated = await admin.PostAsJsonAsync("/api/admin/slots/generate", new
        {
            placeIds = new[] { id },
            from = Day(Today.AddDays(1)),
            to = Day(Today.AddDays(1)),
            template = new { firstStart = "08:00", lastStart = "08:50", intervalMinutes = 10, lengthMinutes = 10 },
            capacity = 1,
        });
        var opening = await admin.PostAsJsonAsync("/api/admin/openings", new { placeIds = new[] { id }, opensAt = DateTimeOffset.UtcNow.AddMinutes(5) });

        Assert.Equal(HttpStatusCode.Created, place.StatusCode);
        Assert.Equal(HttpStatusCode.OK, generated.StatusCode);
        Assert.Equal(6, (await JsonAsync(generated))["slotsCreated"]!.GetValue<int>());
        Assert.Equal(HttpStatusCode.Created, opening.StatusCode);
    }

    [Fact]
    public async Task Every_admin_action_is_in_the_audit_under_the_person_who_did_it()
    {
        var host = await StartAsync(_tokens.Settings);
        var admin = host.Client();
        admin.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _tokens.For("eva.admin", "admin"));
        var from = DateTimeOffset.UtcNow.AddMinutes(-1);

        var place = (await JsonAsync(await admin.PostAsJsonAsync("/api/admin/places",
            new { name = "Poliklinika Audit", address = "Nám. 1, Nitra", region = "Nitriansky kraj", timeZone = "Europe/Bratislava" })))["id"]!.GetValue<int>();
        var demo = await admin.PostAsJsonAsync("/api/admin/demo-data", new { places = 1, days = 1, capacity = 1 });
        var opening = (await JsonAsync(await admin.PostAsJsonAsync("/api/admin/openings",
            new { placeIds = new[] { place }, opensAt = DateTimeOffset.UtcNow.AddMinutes(5) })))["id"]!.GetValue<long>();
        var closed = await admin.PostAsync($"/api/admin/openings/{opening}/close", null);

        Assert.Equal(HttpStatusCode.OK, demo.StatusCode);
        Assert.Equal(HttpStatusCode.OK, closed.StatusCode);
        using var scope = host.Services.CreateScope();
        var trail = await scope.ServiceProvider.GetRequiredService<StaffService>()
            .AuditAsync(null, from, DateTimeOffset.UtcNow.AddMinutes(1), 100, TestContext.Current.CancellationToken);
        Assert.Equal(
            [AuditActions.PlaceCreated, AuditActions.DemoDataCreated, AuditActions.OpeningAnnounced, AuditActions.OpeningClosed],
            trail.Where(e => e.Actor == "eva.admin").OrderBy(e => e.Id).Select(e => e.Action));
        Assert.Contains(trail, e => e.Action == AuditActions.OpeningClosed && e.Target == $"opening {opening}");
    }

    [Theory]
    [InlineData("/api/admin/stats")]
    [InlineData("/api/admin/jobs")]
    [InlineData("/api/admin/openings")]
    public async Task A_viewer_token_reads_what_viewers_may_read(string path)
    {
        var viewer = (await StartWithTokensAsync())("viewer");

        var response = await viewer.GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
    }

    [Fact]
    public async Task A_viewer_token_changes_nothing()
    {
        var viewer = (await StartWithTokensAsync())("viewer");

        var place = await viewer.PostAsJsonAsync("/api/admin/places",
            new { name = "Nedovolené", address = "Nám. 1, Nitra", region = "Nitriansky kraj", timeZone = "Europe/Bratislava" });
        var demo = await viewer.PostAsJsonAsync("/api/admin/demo-data", new { });
        var opening = await viewer.PostAsJsonAsync("/api/admin/openings", new { placeIds = new[] { 1 }, opensAt = DateTimeOffset.UtcNow.AddMinutes(5) });

        foreach (var refused in new[] { place, demo, opening })
        {
            Assert.Equal(HttpStatusCode.Forbidden, refused.StatusCode);
            Assert.Equal("forbidden", await ProblemCodeAsync(refused));
        }
    }

    [Theory]
    [InlineData("site-staff")]
    [InlineData("site-manager")]
    public async Task A_token_without_an_admin_or_viewer_role_may_not_read_the_statistics(string role)
    {
        var staff = (await StartWithTokensAsync())(role);

        var response = await staff.GetAsync("/api/admin/stats");

        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        Assert.Equal("forbidden", await ProblemCodeAsync(response));
    }
}
