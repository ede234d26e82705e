using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Campaign;

/// <summary>
/// The service catalogue on every backend, before any writer names a service (issue 41): the default
/// service is listed, a new place offers it, every booking the unchanged paths write (hot window and
/// disk days) carries it, and the place's page lists it. Responses only gain fields.
/// </summary>
public abstract class ServiceCatalogueContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private SlotsHost? _host;
    private Rows? _rows;

    private async Task<SlotsHost> StartAsync()
    {
        var settings = await CreateDatabaseAsync("db");
        _rows = new Rows(settings);
        _host = NewHost(settings);
        return _host;
    }

    [Fact]
    public async Task The_default_service_is_listed_publicly_with_an_entity_tag()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;

        var listed = await host.Client().GetAsync("/api/services", ct);

        Assert.Equal(HttpStatusCode.OK, listed.StatusCode);
        Assert.Equal("public, max-age=30", listed.Headers.CacheControl?.ToString());
        var service = Assert.Single(JsonNode.Parse(await listed.Content.ReadAsStringAsync(ct))!.AsArray())!.AsObject();
        Assert.Equal("default", service["code"]!.GetValue<string>());
        Assert.Equal("Termín", service["nameSk"]!.GetValue<string>());
        Assert.Equal("Appointment", service["nameEn"]!.GetValue<string>());
        Assert.False(service.ContainsKey("secondDose"));

        var again = new HttpRequestMessage(HttpMethod.Get, "/api/services");
        again.Headers.IfNoneMatch.Add(listed.Headers.ETag!);
        Assert.Equal(HttpStatusCode.NotModified, (await host.Client().SendAsync(again, ct)).StatusCode);
    }

    [Fact]
    public async Task A_new_place_offers_the_default_service_and_its_page_lists_it()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var earlier = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2);
        var before = await host.Client().GetFromJsonAsync<JsonObject>($"/api/places/{earlier}", ct); // this instance's copy is loaded now
        Assert.Single(before!["services"]!.AsArray());
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2);

        var offers = await _rows!.QueryAsync(
            "SELECT service_id, seats FROM place_services WHERE place_id = @place",
            r => (Service: Convert.ToInt32(r.GetValue(0), System.Globalization.CultureInfo.InvariantCulture), Seats: r.IsDBNull(1)),
            ("@place", place));
        Assert.Equal((1, true), Assert.Single(offers));

        // The page right after the creation: the copy loaded before it was refreshed by the creation, not 30 s later.
        var page = await host.Client().GetFromJsonAsync<JsonObject>($"/api/places/{place}", ct);
        var offered = Assert.Single(page!["services"]!.AsArray())!.AsObject();
        Assert.Equal("default", offered["code"]!.GetValue<string>());
        Assert.Equal("Termín", offered["nameSk"]!.GetValue<string>());
        Assert.Equal("Appointment", offered["nameEn"]!.GetValue<string>());
        Assert.Null(offered["minutes"]); // no slot template set for the service yet

        // The list keeps its shape: services only on the place's own page.
        var list = await host.Client().GetFromJsonAsync<JsonObject>("/api/places?pageSize=100", ct);
        var listed = Assert.Single(list!["items"]!.AsArray(), p => p!["id"]!.GetValue<int>() == place)!.AsObject();
        Assert.False(listed.ContainsKey("services"));
    }

    [Fact]
    public async Task Bookings_in_the_window_and_beyond_it_carry_the_default_service()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var hotDay = Today.AddDays(2);
        var coldDay = Today.AddDays(45); // past the 30 hot days: the disk path
        var hot = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, day: hotDay);
        var cold = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, day: coldDay);

        var first = await host.Client().SendAsync(Reserve(hot, hotDay, "08:00", People.Next()), ct);
        var second = await host.Client().SendAsync(Reserve(cold, coldDay, "08:00", People.Next()), ct);

        Assert.Equal(HttpStatusCode.Created, first.StatusCode);
        Assert.Equal(HttpStatusCode.Created, second.StatusCode);
        var hotCode = (await JsonAsync(first))["code"]!.GetValue<string>();
        var coldCode = (await JsonAsync(second))["code"]!.GetValue<string>();
        Assert.Equal([1L], await ServicesAsync("SELECT service_id FROM hot_reservations WHERE code = @code", hotCode));
        Assert.Equal([1L], await ServicesAsync("SELECT service_id FROM hot_seats WHERE code = @code", hotCode));
        Assert.Equal([1L], await ServicesAsync("SELECT service_id FROM reservations WHERE code = @code", coldCode));
        Assert.Equal([1L, 1L], await ServicesAsync("SELECT service_id FROM active_persons WHERE code IN (@code, @other)", hotCode, coldCode));
        // Every slot of both places, hot or not, and every seat of the window: the default service.
        Assert.Equal(0, await _rows!.CountAsync(
            "SELECT COUNT(*) FROM slots WHERE place_id IN (@hot, @cold) AND service_id <> 1", ("@hot", hot), ("@cold", cold)));
        Assert.True(await _rows.CountAsync("SELECT COUNT(*) FROM slots WHERE place_id IN (@hot, @cold)", ("@hot", hot), ("@cold", cold)) > 0);
        Assert.Equal(0, await _rows.CountAsync("SELECT COUNT(*) FROM hot_seats WHERE service_id <> 1"));
        Assert.True(await _rows.CountAsync("SELECT COUNT(*) FROM hot_seats WHERE place_id = @hot", ("@hot", hot)) > 0);
    }

    private async Task<List<long>> ServicesAsync(string sql, string code, string? other = null)
    {
        (string, object)[] args = other is null ? [("@code", code)] : [("@code", code), ("@other", other)];
        return await _rows!.QueryAsync(sql, r => Convert.ToInt64(r.GetValue(0), System.Globalization.CultureInfo.InvariantCulture), args);
    }
}
