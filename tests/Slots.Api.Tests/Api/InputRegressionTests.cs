using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

/// <summary>Inputs that were answered 500, each now a 400 naming its field.</summary>
public sealed class InputRegressionTests : ApiTestBase
{
    /// <summary>As in Development (./slots run): the framework throws on a value it cannot bind.</summary>
    private async Task<SlotsHost> StartLikeDevelopmentAsync() =>
        await StartAsync(services: s => s.Configure<RouteHandlerOptions>(o => o.ThrowOnBadRequest = true));

    [Theory]
    [InlineData("page=99999999999", "page")]
    [InlineData("pageSize=2147483648", "pageSize")]
    [InlineData("page=abc", "page")]
    [InlineData("page=1.5", "page")]
    public async Task Regression_a_places_page_number_past_int_or_not_a_number_was_a_500(string query, string field)
    {
        var client = (await StartLikeDevelopmentAsync()).Client();

        await AssertInvalidAsync(await client.GetAsync($"/api/places?{query}"), field);
    }

    [Fact]
    public async Task Regression_a_places_page_so_deep_its_row_offset_overflowed_is_refused()
    {
        var client = (await StartAsync()).Client();

        await AssertInvalidAsync(await client.GetAsync("/api/places?page=2147483647&pageSize=100"), "page");
    }

    [Fact]
    public async Task Regression_availability_from_the_last_days_of_the_calendar_was_a_500()
    {
        var host = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);

        await AssertInvalidAsync(await host.Client().GetAsync($"/api/places/{place}/availability?from=9999-12-30"), "from");
    }

    [Fact]
    public async Task Regression_availability_on_the_last_day_at_a_place_west_of_utc_was_a_500()
    {
        var host = await StartAsync();
        var created = await host.AdminClient().PostAsJsonAsync("/api/admin/places",
            new { name = "Far west", address = "Somewhere 1", region = "Pacific", timeZone = "Etc/GMT+12" });
        var place = (await created.Content.ReadFromJsonAsync<JsonObject>())!["id"]!.GetValue<int>();

        await AssertInvalidAsync(await host.Client().GetAsync($"/api/places/{place}/availability?from=9999-12-31&to=9999-12-31"), "from");
    }

    [Fact]
    public async Task Regression_generating_slots_in_the_last_days_of_the_calendar_was_a_500()
    {
        var admin = (await StartAsync()).AdminClient();

        var response = await admin.PostAsJsonAsync("/api/admin/slots/generate", new
        {
            from = "9999-12-30",
            to = "9999-12-31",
            template = new { firstStart = "08:00", lastStart = "09:00", intervalMinutes = 30, lengthMinutes = 30 },
            capacity = 1,
            dryRun = true,
        });

        await AssertInvalidAsync(response, "from");
    }

    [Fact]
    public async Task A_place_name_with_a_control_character_is_refused_before_it_reaches_the_database()
    {
        var admin = (await StartAsync()).AdminClient();

        var response = await admin.PostAsJsonAsync("/api/admin/places",
            new { name = "Nul\u0000site", address = "Hlavná 1", region = "Kraj", timeZone = "Europe/Bratislava" });

        await AssertInvalidAsync(response, "name");
    }

    [Fact]
    public async Task A_form_body_refused_by_the_route_is_a_415_problem_with_its_code()
    {
        var client = (await StartAsync()).Client();

        var response = await client.PostAsync("/api/reservations", new FormUrlEncodedContent([new("placeId", "1")]));

        Assert.Equal(HttpStatusCode.UnsupportedMediaType, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType!.MediaType);
        Assert.Equal("unsupported-media-type", await ProblemCodeAsync(response));
    }
}
