using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.Testing.Web;

namespace Slots.Testing.Contracts.Places;

/// <summary>
/// The booking page's search by name (GET /api/places?name=…) finds the same places on every
/// backend. Every backend runs this class unchanged through a subclass.
/// </summary>
public abstract class PlaceSearchContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private SlotsHost? _host;

    private async Task<(HttpClient Client, HttpClient Admin)> StartAsync()
    {
        var settings = await CreateDatabaseAsync("search");
        _host = NewHost(settings);
        return (_host.Client(), _host.AdminClient());
    }

    private static async Task AddPlaceAsync(HttpClient admin, string name) =>
        (await admin.PostAsJsonAsync("/api/admin/places",
            new { name, address = "Hlavná 1", region = "Žilinský kraj", timeZone = "Europe/Bratislava" })).EnsureSuccessStatusCode();

    private static async Task<List<string>> NamesFoundAsync(HttpClient client, string name)
    {
        var page = await client.GetFromJsonAsync<JsonObject>($"/api/places?name={Uri.EscapeDataString(name)}");
        return page!["items"]!.AsArray().Select(p => p!["name"]!.GetValue<string>()).ToList();
    }

    // SQLite's lower() and LIKE fold only ASCII, so 'Č' stayed 'Č' in the database while the
    // person's text was lower-cased to 'č' by .NET: the place was never found.
    [Fact]
    public async Task A_name_search_finds_places_whose_names_have_non_ascii_capitals()
    {
        var (client, admin) = await StartAsync();
        await AddPlaceAsync(admin, "Čakáreň Žilina");
        await AddPlaceAsync(admin, "Poliklinika Šaľa");

        Assert.Equal(["Čakáreň Žilina"], await NamesFoundAsync(client, "Čakáreň"));
        Assert.Equal(["Čakáreň Žilina"], await NamesFoundAsync(client, "čakáreň"));
        Assert.Equal(["Čakáreň Žilina"], await NamesFoundAsync(client, "ŽILINA"));
        Assert.Equal(["Čakáreň Žilina"], await NamesFoundAsync(client, "akáre"));
        Assert.Equal(["Poliklinika Šaľa"], await NamesFoundAsync(client, "šaĽa"));
    }
}
