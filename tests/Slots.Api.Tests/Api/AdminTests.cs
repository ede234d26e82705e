using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

public sealed class AdminTests : ApiTestBase
{
    private static object Generate(int place, bool dryRun = false) => new
    {
        placeIds = new[] { place },
        from = Day(Today.AddDays(1)),
        to = Day(Today.AddDays(3)),
        template = new { firstStart = "07:00", lastStart = "18:50", intervalMinutes = 10, lengthMinutes = 10 },
        capacity = 2,
        dryRun,
    };

    [Fact]
    public async Task Admin_endpoints_answer_401_without_a_key_and_403_for_a_viewer()
    {
        var host = await StartAsync();
        var anonymous = host.Client();
        var viewer = host.Client();
        viewer.DefaultRequestHeaders.Add("X-Api-Key", SlotsHost.ViewerKey);
        var wrong = host.Client();
        wrong.DefaultRequestHeaders.Add("X-Api-Key", "not-the-key-at-all-000");

        var noKey = await anonymous.PostAsJsonAsync("/api/admin/demo-data", new { });
        var badKey = await wrong.GetAsync("/api/admin/stats");
        var forbidden = await viewer.PostAsJsonAsync("/api/admin/demo-data", new { });
        var stats = await viewer.GetAsync("/api/admin/stats");

        Assert.Equal(HttpStatusCode.Unauthorized, noKey.StatusCode);
        Assert.Equal("unauthenticated", await ProblemCodeAsync(noKey));
        Assert.Equal(HttpStatusCode.Unauthorized, badKey.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, forbidden.StatusCode);
        Assert.Equal("forbidden", await ProblemCodeAsync(forbidden));
        Assert.Equal(HttpStatusCode.OK, stats.StatusCode);
    }

    [Fact]
    public async Task Generating_twice_never_duplicates_and_a_dry_run_writes_nothing()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var place = (await (await admin.PostAsJsonAsync("/api/admin/places",
            new { name = "Poliklinika Test", address = "Nám. 1, Nitra", region = "Nitriansky kraj", timeZone = "Europe/Bratislava" }))
            .Content.ReadFromJsonAsync<JsonObject>())!["id"]!.GetValue<int>();

        var preview = await (await admin.PostAsJsonAsync("/api/admin/slots/generate", Generate(place, dryRun: true))).Content.ReadFromJsonAsync<JsonObject>();
        var first = await (await admin.PostAsJsonAsync("/api/admin/slots/generate", Generate(place))).Content.ReadFromJsonAsync<JsonObject>();
        var second = await (await admin.PostAsJsonAsync("/api/admin/slots/generate", Generate(place))).Content.ReadFromJsonAsync<JsonObject>();

        Assert.Equal(3 * 72, preview!["slotsCreated"]!.GetValue<int>());
        Assert.Equal(3 * 72, first!["slotsCreated"]!.GetValue<int>());
        Assert.Equal(3 * 72 * 2, first["seatsCreated"]!.GetValue<long>());
        Assert.Equal(0, second!["slotsCreated"]!.GetValue<int>());
        Assert.Equal(3 * 72, second["slotsExisting"]!.GetValue<int>());
        var availability = await host.Client().GetFromJsonAsync<JsonObject>($"/api/places/{place}/availability?from={Day(Today.AddDays(1))}&to={Day(Today.AddDays(3))}");
        Assert.All(availability!["days"]!.AsArray(), d => Assert.Equal(72, d!["slots"]!.AsArray().Count));
        Assert.All(availability["days"]!.AsArray().SelectMany(d => d!["slots"]!.AsArray()), s => Assert.Equal(2, s!["free"]!.GetValue<int>()));
    }

    [Fact]
    public async Task Bad_admin_input_names_the_fields()
    {
        var admin = (await StartAsync()).AdminClient();

        var place = await admin.PostAsJsonAsync("/api/admin/places", new { name = "", address = "x", region = "y", timeZone = "Mars/Olympus" });
        var generate = await admin.PostAsJsonAsync("/api/admin/slots/generate", new
        {
            from = Day(Today.AddDays(5)),
            to = Day(Today.AddDays(1)),
            template = new { firstStart = "9am", lastStart = "18:00", intervalMinutes = 0, lengthMinutes = 10 },
            capacity = 0,
        });

        Assert.Equal(HttpStatusCode.BadRequest, place.StatusCode);
        var placeErrors = (await JsonAsync(place))["errors"]!.AsObject();
        Assert.True(placeErrors.ContainsKey("name"));
        Assert.True(placeErrors.ContainsKey("timeZone"));
        var errors = (await JsonAsync(generate))["errors"]!.AsObject().Select(e => e.Key).ToHashSet();
        Assert.Superset(new HashSet<string> { "to", "template.firstStart", "template.intervalMinutes", "capacity" }, errors);
    }

    [Fact]
    public async Task Stats_name_a_bad_place_id_and_answer_404_for_a_place_that_does_not_exist()
    {
        var host = await StartAsync();
        var viewer = host.ViewerClient();

        var bad = await Task.WhenAll(new[] { "0", "-1", "x5", "2147483648", "" }
            .Select(id => viewer.GetAsync($"/api/admin/stats?placeId={id}")));
        var missing = await viewer.GetAsync("/api/admin/stats?placeId=2147483647");

        Assert.All(bad, r => Assert.Equal(HttpStatusCode.BadRequest, r.StatusCode));
        foreach (var response in bad)
        {
            Assert.Equal(["placeId"], (await JsonAsync(response))["errors"]!.AsObject().Select(e => e.Key));
        }
        Assert.Equal(HttpStatusCode.NotFound, missing.StatusCode);
        Assert.Equal("unknown-place", await ProblemCodeAsync(missing));
    }

    [Fact]
    public async Task Places_filter_by_region_and_name_and_page()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        foreach (var (name, region) in new[] { ("Nemocnica Alfa", "A kraj"), ("Poliklinika Beta", "A kraj"), ("Nemocnica Gama", "B kraj") })
        {
            await admin.PostAsJsonAsync("/api/admin/places", new { name, address = "Ulica 1", region, timeZone = "Europe/Bratislava" });
        }
        var client = host.Client();

        var inA = await client.GetFromJsonAsync<JsonObject>("/api/places?region=A%20kraj");
        var named = await client.GetFromJsonAsync<JsonObject>("/api/places?name=nemocnica");
        var page2 = await client.GetFromJsonAsync<JsonObject>("/api/places?pageSize=2&page=2");
        var badPage = await client.GetAsync("/api/places?pageSize=1000");

        Assert.Equal(2, inA!["total"]!.GetValue<int>());
        Assert.Equal(2, named!["total"]!.GetValue<int>());
        Assert.Single(page2!["items"]!.AsArray());
        Assert.Equal(HttpStatusCode.BadRequest, badPage.StatusCode);
    }

    [Fact]
    public async Task A_name_search_takes_percent_and_underscore_literally()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        foreach (var name in new[] { "Odber 100% zdarma", "Odber 1000 miest", "Centrum_A", "CentrumBA" })
        {
            await admin.PostAsJsonAsync("/api/admin/places", new { name, address = "Ulica 1", region = "A kraj", timeZone = "Europe/Bratislava" });
        }
        var client = host.Client();

        var percent = await client.GetFromJsonAsync<JsonObject>("/api/places?name=100%25");
        var underscore = await client.GetFromJsonAsync<JsonObject>("/api/places?name=m_a");

        Assert.Equal("Odber 100% zdarma", Assert.Single(percent!["items"]!.AsArray())!["name"]!.GetValue<string>());
        Assert.Equal("Centrum_A", Assert.Single(underscore!["items"]!.AsArray())!["name"]!.GetValue<string>());
    }
}
