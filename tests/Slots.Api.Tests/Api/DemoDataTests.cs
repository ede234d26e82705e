using System.Net.Http.Json;
using System.Text.Json.Nodes;
using System.Text.RegularExpressions;
using Slots.Catalogue;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

/// <summary>Demo data a Slovak reader believes (issue #27): real towns, one street per place, real kinds of place, weekend hours.</summary>
public sealed partial class DemoDataTests : ApiTestBase
{
    private static readonly string[] Kraje =
    [
        "Bratislavský kraj", "Trnavský kraj", "Trenčiansky kraj", "Nitriansky kraj",
        "Žilinský kraj", "Banskobystrický kraj", "Prešovský kraj", "Košický kraj",
    ];

    // What the demo opens: 08:00–16:00 on weekdays, 08:00–12:00 on Saturday, every 15 minutes; closed on Sunday.
    private static int SlotsOn(DateOnly day) => day.DayOfWeek switch
    {
        DayOfWeek.Sunday => 0,
        DayOfWeek.Saturday => 16,
        _ => 32,
    };

    [GeneratedRegex(@"^(?<street>[^,0-9]+) (?<number>[0-9]+), (?<code>[0-9]{3} [0-9]{2}) (?<town>[^,]+)$")]
    private static partial Regex Address();

    [GeneratedRegex(@"^(?:(?:Poliklinika|Očkovacie centrum) (?<street>[^,]+), (?<town>[^,]+)|Nemocnica (?<town>[^,]+))$")]
    private static partial Regex Name();

    [Theory]
    [InlineData("Bratislava", "Bratislavský kraj", "811 01")]
    [InlineData("Trnava", "Trnavský kraj", "917 01")]
    [InlineData("Trenčín", "Trenčiansky kraj", "911 01")]
    [InlineData("Nitra", "Nitriansky kraj", "949 01")]
    [InlineData("Žilina", "Žilinský kraj", "010 01")]
    [InlineData("Banská Bystrica", "Banskobystrický kraj", "974 01")]
    [InlineData("Prešov", "Prešovský kraj", "080 01")]
    [InlineData("Košice", "Košický kraj", "040 01")]
    public void The_town_table_puts_each_kraj_seat_in_its_kraj_with_its_postal_code(string town, string region, string code)
    {
        var entry = Assert.Single(DemoTowns.All, t => t.Name == town);

        Assert.Equal(region, entry.Region);
        Assert.Equal(code, entry.PostalCode);
    }

    [Fact]
    public void The_town_table_covers_every_kraj_once_per_town_with_well_formed_postal_codes()
    {
        Assert.Equal(DemoTowns.All.Count, DemoTowns.All.Select(t => t.Name).Distinct().Count());
        Assert.All(DemoTowns.All, t => Assert.Contains(t.Region, Kraje));
        Assert.All(DemoTowns.All, t => Assert.Matches("^[0-9]{3} [0-9]{2}$", t.PostalCode));
        Assert.Equal(Kraje.Order(), DemoTowns.All.Select(t => t.Region).Distinct().Order());
    }

    [Fact]
    public async Task Demo_places_are_hospitals_polyclinics_or_vaccination_centres_on_one_street_in_a_real_town()
    {
        var host = await StartAsync();
        await host.AdminClient().PostAsJsonAsync("/api/admin/demo-data", new { places = 60, days = 1, capacity = 1, seed = 27 });

        var places = await PlacesAsync(host);

        Assert.Equal(60, places.Count);
        Assert.Equal(places.Count, places.Select(p => p.Name).Distinct().Count());
        Assert.All(places, p =>
        {
            var address = Address().Match(p.Address);
            Assert.True(address.Success, $"'{p.Address}' reads as 'Street 12, 811 01 Town'");
            Assert.DoesNotMatch("^0", address.Groups["number"].Value);
            var town = Assert.Single(DemoTowns.All, t => t.Name == address.Groups["town"].Value);
            Assert.Equal(town.PostalCode, address.Groups["code"].Value);
            Assert.Equal(town.Region, p.Region);

            var name = Name().Match(p.Name);
            Assert.True(name.Success, $"'{p.Name}' is a hospital, polyclinic or vaccination centre");
            Assert.Equal(town.Name, name.Groups["town"].Value);
            if (name.Groups["street"].Success)
            {
                Assert.Equal(address.Groups["street"].Value, name.Groups["street"].Value);
            }
            else
            {
                Assert.True(town.Hospital, $"{town.Name} has a hospital");
            }
        });
        Assert.Contains(places, p => p.Name.StartsWith("Nemocnica ", StringComparison.Ordinal));
        Assert.Contains(places, p => p.Name.StartsWith("Poliklinika ", StringComparison.Ordinal));
        Assert.Contains(places, p => p.Name.StartsWith("Očkovacie centrum ", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Demo_places_are_the_same_for_the_same_seed()
    {
        var first = await StartAsync();
        var second = await StartAsync();
        await first.AdminClient().PostAsJsonAsync("/api/admin/demo-data", new { places = 12, days = 1, capacity = 1, seed = 7 });
        await second.AdminClient().PostAsJsonAsync("/api/admin/demo-data", new { places = 12, days = 1, capacity = 1, seed = 7 });

        Assert.Equal(await PlacesAsync(first), await PlacesAsync(second));
    }

    [Fact]
    public async Task Demo_slots_run_all_day_on_weekdays_until_noon_on_Saturday_and_never_on_Sunday()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();

        var demo = await (await admin.PostAsJsonAsync("/api/admin/demo-data", new { places = 2, days = 9, capacity = 1, seed = 3 })).Content.ReadFromJsonAsync<JsonObject>();

        var week = Enumerable.Range(0, 9).Select(Today.AddDays).ToList();
        Assert.Equal(2 * week.Sum(SlotsOn), demo!["slotsCreated"]!.GetValue<int>());
        foreach (var place in await PlacesAsync(host))
        {
            // From tomorrow: today's slots that have started are not shown any more.
            var availability = await host.Client().GetFromJsonAsync<JsonObject>(
                $"/api/places/{place.Id}/availability?from={Day(Today.AddDays(1))}&to={Day(Today.AddDays(8))}");
            var days = availability!["days"]!.AsArray().ToDictionary(d => d!["day"]!.GetValue<string>(), d => d!["slots"]!.AsArray());
            foreach (var day in week.Skip(1))
            {
                var slots = days.GetValueOrDefault(Day(day)) ?? [];
                Assert.Equal(SlotsOn(day), slots.Count);
                Assert.All(slots, s =>
                {
                    var end = TimeOnly.Parse(s!["time"]!.GetValue<string>(), System.Globalization.CultureInfo.InvariantCulture)
                        .AddMinutes(s["minutes"]!.GetValue<int>());
                    Assert.InRange(end, new TimeOnly(8, 15), day.DayOfWeek == DayOfWeek.Saturday ? new TimeOnly(12, 0) : new TimeOnly(16, 0));
                });
            }
        }
    }

    [Fact]
    public async Task Demo_data_counts_its_places_slots_and_seats()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();

        var demo = await (await admin.PostAsJsonAsync("/api/admin/demo-data", new { places = 3, days = 2, capacity = 2, seed = 7 })).Content.ReadFromJsonAsync<JsonObject>();
        var places = await host.Client().GetFromJsonAsync<JsonObject>("/api/places?pageSize=10");

        Assert.Equal(3, demo!["placesCreated"]!.GetValue<int>());
        Assert.Equal(3 * (SlotsOn(Today) + SlotsOn(Today.AddDays(1))), demo["slotsCreated"]!.GetValue<int>());
        Assert.Equal(3, places!["total"]!.GetValue<int>());
        var stats = await admin.GetFromJsonAsync<JsonObject>($"/api/admin/stats?from={Day(Today)}&to={Day(Today.AddDays(3))}");
        Assert.Equal(3L * (SlotsOn(Today) + SlotsOn(Today.AddDays(1))) * 2, stats!["days"]!.AsArray().Sum(d => d!["freeSeats"]!.GetValue<long>()));
    }

    private sealed record DemoPlace(int Id, string Name, string Address, string Region);

    private static async Task<List<DemoPlace>> PlacesAsync(SlotsHost host)
    {
        var page = await host.Client().GetFromJsonAsync<JsonObject>("/api/places?pageSize=100");
        return page!["items"]!.AsArray().Select(p => new DemoPlace(
            p!["id"]!.GetValue<int>(), p["name"]!.GetValue<string>(), p["address"]!.GetValue<string>(), p["region"]!.GetValue<string>())).ToList();
    }
}
