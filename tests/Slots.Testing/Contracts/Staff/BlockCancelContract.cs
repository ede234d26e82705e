using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Slots.Staff;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Staff;

/// <summary>
/// A site cancels a block of its slots, on every backend: the slots close at once, each booking in
/// them is cancelled once with one SMS carrying the reason, checked-in bookings stay, the same block
/// asked again answers the first, and a block cut off half-way is finished without a second SMS.
/// </summary>
public abstract class BlockCancelContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private const string Reason = "Porucha chladenia vakcin";
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

    private HttpClient Manager(int place)
    {
        var client = _host!.Client();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _tokens.For("lead", "site-manager", place));
        return client;
    }

    private static Task<HttpResponseMessage> CancelBlockAsync(HttpClient manager, int place, DateOnly day, string? from, string? to, string? reason = Reason) =>
        manager.PostAsJsonAsync($"/api/staff/places/{place}/block-cancels", new { day = Day(day), from, to, reason });

    private static async Task<List<string>> BookManyAsync(HttpClient client, int place, DateOnly day, string time, int count)
    {
        var codes = new List<string>();
        for (var i = 0; i < count; i++)
        {
            var booked = await client.SendAsync(Reserve(place, day, time, People.Next(), language: i % 2 == 0 ? "sk" : "en"));
            Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
            codes.Add((await JsonAsync(booked))["code"]!.GetValue<string>());
        }
        return codes;
    }

    /// <summary>The site-cancel SMS queued, code by code (a code twice would be an SMS sent twice).</summary>
    private Task<List<(string Code, string Note)>> SiteCancelSmsAsync(int place) => _rows!.QueryAsync(
        "SELECT code, note FROM outbox WHERE kind = 4 AND place_id = @place ORDER BY code",
        r => (r.GetString(0), r.GetString(1)), ("@place", place));

    [Fact]
    public async Task A_block_closes_its_slots_at_once_and_cancels_each_booking_once_with_one_sms_naming_the_reason()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 3, day: day);
        var inBlock = (await BookManyAsync(host.Client(), place, day, "08:00", 3)).Concat(await BookManyAsync(host.Client(), place, day, "08:10", 2)).Order().ToList();
        var outside = Assert.Single(await BookManyAsync(host.Client(), place, day, "08:30", 1));
        var manager = Manager(place);

        var response = await CancelBlockAsync(manager, place, day, "08:00", "08:20");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        var block = await JsonAsync(response);
        Assert.Equal(5, block["cancelled"]!.GetValue<int>());
        Assert.Equal(0, block["kept"]!.GetValue<int>());
        Assert.True(block["finished"]!.GetValue<bool>());
        Assert.True(block["created"]!.GetValue<bool>());
        Assert.Equal(("08:00", "08:20"), (block["from"]!.GetValue<string>(), block["to"]!.GetValue<string>()));
        var sms = await SiteCancelSmsAsync(place);
        Assert.Equal(inBlock, sms.Select(s => s.Code));
        Assert.All(sms, s => Assert.Equal(Reason, s.Note));
        // Closed: a freed seat is not offered and cannot be taken; the slot after the block still can.
        var refused = await host.Client().SendAsync(Reserve(place, day, "08:10", People.Next()));
        Assert.NotEqual(HttpStatusCode.Created, refused.StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await host.Client().SendAsync(Reserve(place, day, "08:40", People.Next()))).StatusCode);
        var offered = await host.Client().GetFromJsonAsync<JsonObject>($"/api/places/{place}/availability?from={Day(day)}&to={Day(day)}");
        Assert.DoesNotContain(offered!["days"]!.AsArray().SelectMany(d => d!["slots"]!.AsArray()),
            s => s!["time"]!.GetValue<string>() is "08:00" or "08:10" && s["free"]!.GetValue<int>() > 0);
        // The roster says who cancelled; the booking outside the block is untouched.
        var roster = await JsonAsync(await manager.GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}&state=cancelled-by-site"));
        Assert.Equal(inBlock, roster["rows"]!.AsArray().Select(r => r!["code"]!.GetValue<string>()).Order());
        Assert.All(roster["rows"]!.AsArray(), r => Assert.Equal("lead", r!["by"]!.GetValue<string>()));
        var booked = await JsonAsync(await manager.GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}&state=booked"));
        Assert.Contains(booked["rows"]!.AsArray(), r => r!["code"]!.GetValue<string>() == outside);
        var trail = JsonNode.Parse(await manager.GetStringAsync($"/api/staff/places/{place}/audit"))!.AsArray();
        Assert.Contains(trail, e => e!["action"]!.GetValue<string>() == "block-cancel" && e["reason"]!.GetValue<string>() == Reason
            && e["target"]!.GetValue<string>() == $"{Day(day)} 08:00-08:20");
    }

    [Fact]
    public async Task A_block_opened_again_takes_bookings_its_cancels_stay_and_the_trail_says_who()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, day: day);
        var cancelled = (await BookManyAsync(host.Client(), place, day, "08:00", 2)).Order().ToList();
        var manager = Manager(place);
        var id = (await JsonAsync(await CancelBlockAsync(manager, place, day, "08:00", "08:20")))["id"]!.GetValue<long>();
        // A place's close is opened with the place, not block by block.
        var closed = await host.AdminClient().PostAsJsonAsync($"/api/admin/places/{place}/close", new { reason = "Zatvorené", keepBookings = true }, ct);
        closed.EnsureSuccessStatusCode();
        var standing = await manager.GetFromJsonAsync<JsonArray>($"/api/staff/places/{place}/block-cancels", ct);
        var closeBlock = await _rows!.CountAsync("SELECT MIN(id) FROM site_cancels WHERE closes_place = @yes", ("@yes", true));
        var ofTheClose = await manager.PostAsync($"/api/staff/places/{place}/block-cancels/{closeBlock}/reopen", null, ct);
        (await host.AdminClient().PostAsync($"/api/admin/places/{place}/reopen", null, ct)).EnsureSuccessStatusCode();

        var reopened = await manager.PostAsync($"/api/staff/places/{place}/block-cancels/{id}/reopen", null, ct);
        var again = await manager.PostAsync($"/api/staff/places/{place}/block-cancels/{id}/reopen", null, ct);
        var malformed = await manager.PostAsync($"/api/staff/places/{place}/block-cancels/first/reopen", null, ct);

        Assert.Equal([id], standing!.Select(b => b!["id"]!.GetValue<long>()));
        Assert.Equal(("08:00", "08:20"), (standing![0]!["from"]!.GetValue<string>(), standing[0]!["to"]!.GetValue<string>()));
        Assert.Equal(HttpStatusCode.NoContent, reopened.StatusCode);
        Assert.Equal((HttpStatusCode.NotFound, "block-not-found"), (again.StatusCode, await ProblemCodeAsync(again)));
        Assert.Equal((HttpStatusCode.NotFound, "block-not-found"), (ofTheClose.StatusCode, await ProblemCodeAsync(ofTheClose)));
        Assert.Equal(HttpStatusCode.BadRequest, malformed.StatusCode);
        Assert.True((await JsonAsync(malformed))["errors"]!.AsObject().ContainsKey("blockId"));
        Assert.Empty((await manager.GetFromJsonAsync<JsonArray>($"/api/staff/places/{place}/block-cancels", ct))!);
        // Its slots take bookings again, every seat free; the bookings it cancelled stay cancelled, with one SMS each.
        Assert.Equal(2, await FreeSeatsAsync(host.Client(), place, day, "08:00"));
        Assert.Equal(HttpStatusCode.Created, (await host.Client().SendAsync(Reserve(place, day, "08:00", People.Next()), ct)).StatusCode);
        var roster = await JsonAsync(await manager.GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}&state=cancelled-by-site", ct));
        Assert.Equal(cancelled, roster["rows"]!.AsArray().Select(r => r!["code"]!.GetValue<string>()).Order());
        Assert.Equal(cancelled, (await SiteCancelSmsAsync(place)).Select(s => s.Code));
        var trail = JsonNode.Parse(await manager.GetStringAsync($"/api/staff/places/{place}/audit", ct))!.AsArray();
        var entry = Assert.Single(trail, e => e!["action"]!.GetValue<string>() == "block-reopened");
        Assert.Equal((id.ToString(System.Globalization.CultureInfo.InvariantCulture), "lead"), (entry!["target"]!.GetValue<string>(), entry["actor"]!.GetValue<string>()));
    }

    [Fact]
    public async Task The_same_block_asked_again_answers_the_first_and_queues_nothing_more()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, day: day);
        await BookManyAsync(host.Client(), place, day, "08:20", 2);
        var manager = Manager(place);
        Assert.Equal(HttpStatusCode.OK, (await CancelBlockAsync(manager, place, day, null, null)).StatusCode);

        var again = await JsonAsync(await CancelBlockAsync(manager, place, day, null, null, "Another reason"));

        Assert.False(again["created"]!.GetValue<bool>());
        Assert.Equal(2, again["cancelled"]!.GetValue<int>());
        Assert.Equal(Reason, again["reason"]!.GetValue<string>());
        Assert.Equal("24:00", again["to"]!.GetValue<string>());
        Assert.Equal(2, (await SiteCancelSmsAsync(place)).Count);
    }

    [Fact]
    public async Task A_disk_day_block_cancels_its_bookings_and_refuses_new_ones()
    {
        var host = await StartAsync();
        var day = Today.AddDays(40);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, day: day);
        var codes = (await BookManyAsync(host.Client(), place, day, "08:40", 2)).Order().ToList();

        var block = await JsonAsync(await CancelBlockAsync(Manager(place), place, day, "08:30", "09:00"));

        Assert.Equal(2, block["cancelled"]!.GetValue<int>());
        Assert.Equal(codes, (await SiteCancelSmsAsync(place)).Select(s => s.Code));
        Assert.Equal(2, await _rows!.CountAsync("SELECT COUNT(*) FROM reservations WHERE place_id = @place AND cancelled_at IS NOT NULL", ("@place", place)));
        Assert.NotEqual(HttpStatusCode.Created, (await host.Client().SendAsync(Reserve(place, day, "08:40", People.Next()))).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await host.Client().SendAsync(Reserve(place, day, "08:00", People.Next()))).StatusCode);
    }

    [Fact]
    public async Task A_block_cut_off_half_way_is_finished_with_one_sms_per_person()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 5, day: day);
        var codes = (await BookManyAsync(host.Client(), place, day, "08:00", 5)).Order().ToList();
        var store = host.Services.GetRequiredService<IStaffStore>();
        var now = DateTimeOffset.FromUnixTimeSeconds(DateTimeOffset.UtcNow.ToUnixTimeSeconds());
        var ct = TestContext.Current.CancellationToken;
        // The runner takes one batch of two and dies: the block is open, two people told, three not yet.
        var opened = await store.OpenBlockCancelAsync(new BlockCancelRequest(place, day, 0, 24 * 60, Reason, "lead", now), ct);
        Assert.Equal(2, await store.CancelBlockBatchAsync(opened.Block.Id, now, 2, ct));
        Assert.Equal([opened.Block.Id], await store.StalledBlockCancelsAsync(now.AddSeconds(1), ct));

        var finished = await host.Services.GetRequiredService<BlockCancels>().RunAsync(opened.Block.Id, ct);

        Assert.Equal(5, finished.Cancelled);
        Assert.True(finished.Finished);
        Assert.Equal(codes, (await SiteCancelSmsAsync(place)).Select(s => s.Code));
        Assert.Empty(await store.StalledBlockCancelsAsync(now.AddHours(1), ct));
        Assert.Equal(0, await store.CancelBlockBatchAsync(opened.Block.Id, now, 2, ct));
    }

    [Fact]
    public async Task Checked_in_bookings_stay_and_the_counts_say_so()
    {
        var host = await StartAsync();
        var (place, soon, today) = await PlaceWithASlotSoonAsync(host.AdminClient());
        var codes = await BookManyAsync(host.Client(), place, today, soon, 2);
        var door = _host!.Client();
        door.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _tokens.For("nurse", "site-staff", place));
        var checkIn = await door.PostAsJsonAsync($"/api/staff/places/{place}/check-ins", new { code = codes[0] });
        Assert.Equal(HttpStatusCode.OK, checkIn.StatusCode);

        var block = await JsonAsync(await CancelBlockAsync(Manager(place), place, today, null, null));

        Assert.Equal(1, block["cancelled"]!.GetValue<int>());
        Assert.Equal(1, block["kept"]!.GetValue<int>());
        Assert.Equal([codes[1]], (await SiteCancelSmsAsync(place)).Select(s => s.Code));
    }

    [Fact]
    public async Task Bad_blocks_get_a_problem_naming_the_field_and_change_nothing()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: day);
        await BookManyAsync(host.Client(), place, day, "08:00", 1);
        var manager = Manager(place);

        await AssertInvalidAsync(await CancelBlockAsync(manager, place, Today.AddDays(-1), null, null), "day");
        await AssertInvalidAsync(await CancelBlockAsync(manager, place, day, "09:00", "08:00"), "to");
        await AssertInvalidAsync(await CancelBlockAsync(manager, place, day, "8am", null), "from");
        await AssertInvalidAsync(await CancelBlockAsync(manager, place, day, null, null, reason: null), "reason");
        await AssertInvalidAsync(await CancelBlockAsync(manager, place, day, null, null, reason: new string('x', 101)), "reason");
        await AssertInvalidAsync(await manager.PostAsJsonAsync($"/api/staff/places/{place}/block-cancels", new { reason = Reason }), "day");

        Assert.Empty(await SiteCancelSmsAsync(place));
        Assert.Equal(1, await FreeSeatsAsync(host.Client(), place, day, "08:10"));
    }

    /// <summary>A place whose clock reads about noon now, with one slot today starting in 10 to 20 minutes.</summary>
    private static async Task<(int Place, string Soon, DateOnly Today)> PlaceWithASlotSoonAsync(HttpClient admin)
    {
        var utc = DateTimeOffset.UtcNow;
        var offset = 12 - utc.Hour;
        var zone = offset == 0 ? "Etc/GMT" : offset > 0 ? $"Etc/GMT-{offset}" : $"Etc/GMT+{-offset}";
        var soon = utc.ToOffset(TimeSpan.FromHours(offset)).AddMinutes(20);
        soon = soon.AddMinutes(-(soon.Minute % 10));
        var created = await admin.PostAsJsonAsync("/api/admin/places", new
        {
            name = $"Block test {Guid.NewGuid():N}",
            address = "Hlavná 1, 811 01 Bratislava",
            region = "Bratislavský kraj",
            timeZone = zone,
        });
        created.EnsureSuccessStatusCode();
        var place = (await created.Content.ReadFromJsonAsync<JsonObject>())!["id"]!.GetValue<int>();
        var today = DateOnly.FromDateTime(soon.DateTime);
        var time = soon.ToString("HH:mm", System.Globalization.CultureInfo.InvariantCulture);
        var generated = await admin.PostAsJsonAsync("/api/admin/slots/generate", new
        {
            placeIds = new[] { place },
            from = Day(today),
            to = Day(today),
            template = new { firstStart = time, lastStart = time, intervalMinutes = 10, lengthMinutes = 10 },
            capacity = 5,
        });
        generated.EnsureSuccessStatusCode();
        return (place, time, today);
    }
}
