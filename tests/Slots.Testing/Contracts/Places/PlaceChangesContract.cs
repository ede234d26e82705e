using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Places;

/// <summary>
/// Places that change, on every backend: an admin's edit shows on the place page at once; a close
/// refuses new bookings at once on hot and disk days (the seats go in the close's own transaction),
/// keeping the bookings or cancelling each with one SMS; a reopen gives the seats back, and a site's
/// own block cancel stays; only admins may do any of it; bad input is a problem naming the field.
/// </summary>
public abstract class PlaceChangesContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private const string Reason = "Rekonstrukcia budovy";
    private const int SiteCancelledKind = 4;
    private readonly StaffTokens _tokens = new();
    private SlotsHost? _host;
    private Rows? _rows;

    private async Task<SlotsHost> StartAsync()
    {
        var settings = await CreateDatabaseAsync("db");
        _rows = new Rows(settings);
        _host = NewHost(settings, _tokens.Settings);
        return _host;
    }

    /// <summary>A hot day (inside the 30-day window) and a disk day (beyond it), each with slots 08:00-08:50.</summary>
    private static readonly DateOnly HotDay = Today.AddDays(2);
    private static readonly DateOnly DiskDay = Today.AddDays(40);

    private static async Task<string> BookAsync(HttpClient client, int place, DateOnly day, string time, Person person)
    {
        var booked = await client.SendAsync(Reserve(place, day, time, person));
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        return (await JsonAsync(booked))["code"]!.GetValue<string>();
    }

    private static Task<HttpResponseMessage> CloseAsync(HttpClient admin, int place, bool keepBookings) =>
        admin.PostAsJsonAsync($"/api/admin/places/{place}/close", new { reason = Reason, keepBookings });

    private static Task<HttpResponseMessage> ReopenAsync(HttpClient admin, int place) =>
        admin.PostAsync($"/api/admin/places/{place}/reopen", null);

    private static async Task AssertRefusedAsClosedAsync(HttpClient client, int place, DateOnly day, string time)
    {
        var refused = await client.SendAsync(Reserve(place, day, time, People.Next()));
        Assert.Equal(HttpStatusCode.Conflict, refused.StatusCode);
        Assert.Equal("place-closed", await ProblemCodeAsync(refused));
    }

    private static async Task<IReadOnlyList<JsonNode>> OfferedAsync(HttpClient client, int place, DateOnly day)
    {
        var offered = await client.GetFromJsonAsync<JsonObject>($"/api/places/{place}/availability?from={Day(day)}&to={Day(day)}");
        return [.. offered!["days"]!.AsArray().SelectMany(d => d!["slots"]!.AsArray()).Where(s => s!["free"]!.GetValue<int>() > 0).Select(s => s!)];
    }

    private Task<List<(string Action, string? Target, string? Reason)>> AuditAsync(int place) => _rows!.QueryAsync(
        "SELECT action, target, reason FROM staff_audit WHERE place_id = @place ORDER BY id",
        r => (r.GetString(0), r.IsDBNull(1) ? null : r.GetString(1), r.IsDBNull(2) ? null : r.GetString(2)), ("@place", place));

    private Task<long> SiteCancelSmsAsync(int place) =>
        _rows!.CountAsync($"SELECT COUNT(*) FROM outbox WHERE kind = {SiteCancelledKind} AND place_id = @place", ("@place", place));

    [Fact]
    public async Task An_edit_shows_on_the_place_page_at_once_and_the_trail_names_the_fields_that_changed()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var name = $"Odberné miesto {Guid.NewGuid():N}";
        Assert.Equal(HttpStatusCode.OK, (await host.Client().GetAsync($"/api/places/{place}")).StatusCode); // the directory holds the old copy

        var edited = await admin.PutAsJsonAsync($"/api/admin/places/{place}", new
        {
            name,
            address = "Hlavná 1, 811 01 Bratislava",
            region = "Trnavský kraj",
            openingHours = "Po-Pi 8:00-16:00",
        });

        Assert.Equal(HttpStatusCode.OK, edited.StatusCode);
        var page = await host.Client().GetFromJsonAsync<JsonObject>($"/api/places/{place}");
        Assert.Equal(name, page!["name"]!.GetValue<string>());
        Assert.Equal("Trnavský kraj", page["region"]!.GetValue<string>());
        Assert.Equal("Po-Pi 8:00-16:00", page["openingHours"]!.GetValue<string>());
        Assert.False(page["closed"]!.GetValue<bool>());
        var listed = await host.Client().GetFromJsonAsync<JsonObject>($"/api/places?region={Uri.EscapeDataString("Trnavský kraj")}&name={name}");
        Assert.Equal(place, Assert.Single(listed!["items"]!.AsArray())!["id"]!.GetValue<int>());
        // Booking reads the place from the directory: it still books, under the new name.
        Assert.Equal(HttpStatusCode.Created, (await host.Client().SendAsync(Reserve(place, HotDay, "08:00", People.Next()))).StatusCode);
        Assert.Contains(await AuditAsync(place), e => e == ("place-edited", "name,region,openingHours", null));

        // Opening hours left out clear them; an edit that changes nothing is not written to the trail.
        var cleared = await admin.PutAsJsonAsync($"/api/admin/places/{place}", new { name, address = "Hlavná 1, 811 01 Bratislava", region = "Trnavský kraj" });
        Assert.Equal(HttpStatusCode.OK, cleared.StatusCode);
        Assert.Null((await JsonAsync(cleared))["openingHours"]);
        await admin.PutAsJsonAsync($"/api/admin/places/{place}", new { name, address = "Hlavná 1, 811 01 Bratislava", region = "Trnavský kraj" });
        Assert.Equal(2, (await AuditAsync(place)).Count(e => e.Action == "place-edited"));
    }

    [Fact]
    public async Task A_close_keeping_bookings_refuses_new_ones_at_once_on_hot_and_disk_days_and_the_booked_stay()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 2, HotDay, DiskDay);
        var hot = People.Next();
        var hotCode = await BookAsync(client, place, HotDay, "08:00", hot);
        var disk = People.Next();
        var diskCode = await BookAsync(client, place, DiskDay, "08:00", disk);

        var closed = await CloseAsync(admin, place, keepBookings: true);

        Assert.Equal(HttpStatusCode.OK, closed.StatusCode);
        var answer = await JsonAsync(closed);
        Assert.Equal(3, answer["days"]!.GetValue<int>()); // the hot day, the day after it, the disk day
        Assert.Equal(0, answer["cancelled"]!.GetValue<int>());
        Assert.Equal(2, answer["kept"]!.GetValue<int>());
        await AssertRefusedAsClosedAsync(client, place, HotDay, "08:00");
        await AssertRefusedAsClosedAsync(client, place, HotDay, "08:10");
        await AssertRefusedAsClosedAsync(client, place, DiskDay, "08:10");
        Assert.Empty(await OfferedAsync(client, place, HotDay));
        Assert.Empty(await OfferedAsync(client, place, DiskDay));
        Assert.True((await client.GetFromJsonAsync<JsonObject>($"/api/places/{place}"))!["closed"]!.GetValue<bool>());
        // The booked keep their bookings, and nobody was sent a cancel.
        foreach (var (code, person) in new[] { (hotCode, hot), (diskCode, disk) })
        {
            var found = await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone));
            Assert.Equal(HttpStatusCode.OK, found.StatusCode);
        }
        Assert.Equal(0, await SiteCancelSmsAsync(place));
        Assert.Contains(await AuditAsync(place), e => e == ("place-closed", "keep-bookings", Reason));
    }

    [Fact]
    public async Task A_close_cancelling_bookings_tells_each_person_once_and_a_reopen_books_again()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 2, HotDay, DiskDay);
        var codes = new[]
        {
            await BookAsync(client, place, HotDay, "08:00", People.Next()),
            await BookAsync(client, place, HotDay, "08:00", People.Next()),
            await BookAsync(client, place, DiskDay, "08:20", People.Next()),
        }.Order().ToList();

        var closed = await JsonAsync(await CloseAsync(admin, place, keepBookings: false));

        Assert.Equal(3, closed["cancelled"]!.GetValue<int>());
        Assert.Equal(0, closed["kept"]!.GetValue<int>());
        var told = await _rows!.QueryAsync($"SELECT code, note FROM outbox WHERE kind = {SiteCancelledKind} AND place_id = @place ORDER BY code",
            r => (r.GetString(0), r.GetString(1)), ("@place", place));
        Assert.Equal(codes, told.Select(t => t.Item1));
        Assert.All(told, t => Assert.Equal(Reason, t.Item2));
        await AssertRefusedAsClosedAsync(client, place, HotDay, "08:00");

        var reopened = await ReopenAsync(admin, place);

        Assert.Equal(HttpStatusCode.OK, reopened.StatusCode);
        Assert.Equal(3, (await JsonAsync(reopened))["days"]!.GetValue<int>());
        Assert.False((await client.GetFromJsonAsync<JsonObject>($"/api/places/{place}"))!["closed"]!.GetValue<bool>());
        // The cancelled bookings' seats came back free; the cancelled stay cancelled and told once.
        Assert.Equal(2, await FreeSeatsAsync(client, place, HotDay, "08:00"));
        await BookAsync(client, place, HotDay, "08:00", People.Next());
        await BookAsync(client, place, DiskDay, "08:20", People.Next());
        Assert.Equal(3, await SiteCancelSmsAsync(place));
        var trail = await AuditAsync(place);
        Assert.Contains(trail, e => e == ("place-closed", "cancel-bookings", Reason));
        Assert.Contains(trail, e => e.Action == "place-reopened");
    }

    [Fact]
    public async Task A_close_racing_bookings_keeps_exactly_the_bookings_that_won_a_seat_and_refuses_the_rest()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 6, HotDay);
        var ct = TestContext.Current.CancellationToken;
        var bookings = Enumerable.Range(0, 12).Select(async i =>
        {
            await Task.Delay(i * 5, ct);
            return await host.Client().SendAsync(Reserve(place, HotDay, "08:00", People.Next()), ct);
        }).ToList();
        var closing = CloseAsync(admin, place, keepBookings: true);

        var answers = await Task.WhenAll(bookings);
        var closed = await JsonAsync(await closing);

        var won = answers.Count(a => a.StatusCode == HttpStatusCode.Created);
        foreach (var refused in answers.Where(a => a.StatusCode != HttpStatusCode.Created))
        {
            Assert.Contains(await ProblemCodeAsync(refused), new[] { "place-closed", "slot-full", "unknown-slot" });
        }
        // Every booking that won a seat before the close took the free ones is kept, and none after it.
        Assert.InRange(won, 0, 6);
        Assert.Equal(won, closed["kept"]!.GetValue<int>());
        Assert.Equal(won, (await _rows!.HotAsync(place)).Count);
        Assert.Empty(await OfferedAsync(host.Client(), place, HotDay));
        await AssertRefusedAsClosedAsync(host.Client(), place, HotDay, "08:00");
    }

    [Fact]
    public async Task A_reopen_gives_back_only_the_free_seats_and_the_place_can_be_closed_again()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 2, HotDay, DiskDay);
        await BookAsync(client, place, HotDay, "08:00", People.Next());
        Assert.Equal(HttpStatusCode.OK, (await CloseAsync(admin, place, keepBookings: true)).StatusCode);

        Assert.Equal(HttpStatusCode.OK, (await ReopenAsync(admin, place)).StatusCode);

        Assert.Equal(1, await FreeSeatsAsync(client, place, HotDay, "08:00"));
        await BookAsync(client, place, HotDay, "08:00", People.Next());
        var full = await client.SendAsync(Reserve(place, HotDay, "08:00", People.Next()));
        Assert.Equal("slot-full", await ProblemCodeAsync(full));
        // The same days close again (the reopened blocks no longer stand in the way) and open again.
        var again = await JsonAsync(await CloseAsync(admin, place, keepBookings: true));
        Assert.Equal(3, again["days"]!.GetValue<int>());
        await AssertRefusedAsClosedAsync(client, place, DiskDay, "08:00");
        Assert.Equal(HttpStatusCode.OK, (await ReopenAsync(admin, place)).StatusCode);
        await BookAsync(client, place, DiskDay, "08:00", People.Next());
    }

    [Fact]
    public async Task A_reopen_leaves_a_sites_own_block_cancel_closed()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 1, HotDay, DiskDay);
        var manager = host.Client();
        manager.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _tokens.For("lead", "site-manager", place));
        var block = await manager.PostAsJsonAsync($"/api/staff/places/{place}/block-cancels",
            new { day = Day(HotDay), from = "08:00", to = "08:20", reason = "Lekar chory" });
        Assert.Equal(HttpStatusCode.OK, block.StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await CloseAsync(admin, place, keepBookings: true)).StatusCode);

        Assert.Equal(HttpStatusCode.OK, (await ReopenAsync(admin, place)).StatusCode);

        Assert.NotEqual(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, HotDay, "08:10", People.Next()))).StatusCode);
        Assert.DoesNotContain(await OfferedAsync(client, place, HotDay), s => s["time"]!.GetValue<string>() is "08:00" or "08:10");
        await BookAsync(client, place, HotDay, "08:20", People.Next());
    }

    [Fact]
    public async Task Only_admins_edit_close_and_reopen_a_place()
    {
        var host = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        var edit = new { name = "Iné meno", address = "Hlavná 2", region = "Bratislavský kraj" };
        var manager = host.Client();
        manager.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _tokens.For("lead", "site-manager", place));
        var refused = new (HttpClient Client, HttpStatusCode Status)[]
        {
            (host.Client(), HttpStatusCode.Unauthorized),
            (manager, HttpStatusCode.Forbidden),
            (host.ViewerClient(), HttpStatusCode.Forbidden),
        };

        foreach (var (client, status) in refused)
        {
            Assert.Equal(status, (await client.PutAsJsonAsync($"/api/admin/places/{place}", edit)).StatusCode);
            Assert.Equal(status, (await CloseAsync(client, place, keepBookings: true)).StatusCode);
            Assert.Equal(status, (await ReopenAsync(client, place)).StatusCode);
        }

        var page = await host.Client().GetFromJsonAsync<JsonObject>($"/api/places/{place}");
        Assert.NotEqual("Iné meno", page!["name"]!.GetValue<string>());
        Assert.False(page["closed"]!.GetValue<bool>());
        Assert.DoesNotContain(await AuditAsync(place), e => e.Action is "place-edited" or "place-closed" or "place-reopened");
    }

    [Fact]
    public async Task Bad_input_is_a_problem_naming_the_field_and_an_unknown_place_is_404()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var url = $"/api/admin/places/{place}";

        await AssertInvalidAsync(await admin.PutAsJsonAsync(url, new { name = " ", address = "Hlavná 2", region = "Bratislavský kraj" }), "name");
        await AssertInvalidAsync(await admin.PutAsJsonAsync(url, new { name = "A", region = "Bratislavský kraj" }), "address");
        await AssertInvalidAsync(await admin.PutAsJsonAsync(url, new { name = "A", address = "B", region = "Bratislavský kraj", openingHours = new string('x', 501) }), "openingHours");
        // 501 characters as sent are too many even when trimming leaves 500: the document's maxLength is the wire's.
        await AssertInvalidAsync(await admin.PutAsJsonAsync(url, new { name = "A", address = "B", region = "Bratislavský kraj", openingHours = " " + new string('x', 500) }), "openingHours");
        await AssertInvalidAsync(await admin.PutAsJsonAsync(url, new { name = "A", address = "B", region = "Bratislavský kraj", openingHours = "8:00\n16:00" }), "openingHours");
        await AssertInvalidAsync(await admin.PutAsJsonAsync("/api/admin/places/abc", new { name = "A", address = "B", region = "C" }), "id");
        await AssertInvalidAsync(await admin.PostAsJsonAsync($"{url}/close", new { reason = Reason }), "keepBookings");
        await AssertInvalidAsync(await admin.PostAsJsonAsync($"{url}/close", new { keepBookings = false }), "reason");
        await AssertInvalidAsync(await admin.PostAsJsonAsync($"{url}/close", new { reason = new string('x', 101), keepBookings = false }), "reason");
        await AssertInvalidAsync(await admin.PostAsync("/api/admin/places/0/reopen", null), "id");

        var unknown = await admin.PutAsJsonAsync("/api/admin/places/99999999", new { name = "A", address = "B", region = "C" });
        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
        Assert.Equal("unknown-place", await ProblemCodeAsync(unknown));
        Assert.Equal("unknown-place", await ProblemCodeAsync(await CloseAsync(admin, 99999999, keepBookings: true)));
        Assert.Equal("unknown-place", await ProblemCodeAsync(await ReopenAsync(admin, 99999999)));
        Assert.DoesNotContain(await AuditAsync(place), e => e.Action is "place-edited" or "place-closed" or "place-reopened");
    }
}
