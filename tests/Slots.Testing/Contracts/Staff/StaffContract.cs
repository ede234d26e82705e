using System.Globalization;
using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Staff;

/// <summary>
/// The site's day over HTTP against the real host, on every backend: who may do what where, the
/// roster, check-in at the door and its race with the citizen's cancel, the export and the trail.
/// </summary>
public abstract class StaffContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private readonly StaffTokens _tokens = new();
    private SlotsHost? _host;

    private async Task<SlotsHost> StartAsync()
    {
        var settings = await CreateDatabaseAsync("db");
        _host = NewHost(settings, _tokens.Settings);
        return _host;
    }

    private HttpClient As(string token)
    {
        var client = _host!.Client();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return client;
    }

    /// <summary>
    /// A place whose clock reads about noon now (an Etc/GMT zone picked for it), with one slot today
    /// starting in 10 to 20 minutes, one later today, and the same two tomorrow: a check-in "now" is
    /// in time for the first, early for the second, and on the wrong day for tomorrow's.
    /// </summary>
    internal static async Task<(int Place, string Soon, string Later, DateOnly Today, DateOnly Tomorrow)> PlaceOpenNowAsync(HttpClient admin)
    {
        var utc = DateTimeOffset.UtcNow;
        var offset = 12 - utc.Hour;
        var zone = offset == 0 ? "Etc/GMT" : offset > 0 ? $"Etc/GMT-{offset}" : $"Etc/GMT+{-offset}";
        var local = utc.ToOffset(TimeSpan.FromHours(offset));
        var soon = local.AddMinutes(20);
        soon = soon.AddMinutes(-(soon.Minute % 10));
        var created = await admin.PostAsJsonAsync("/api/admin/places", new
        {
            name = $"Door test {Guid.NewGuid():N}",
            address = "Hlavná 1, 811 01 Bratislava",
            region = "Bratislavský kraj",
            timeZone = zone,
        });
        created.EnsureSuccessStatusCode();
        var place = (await created.Content.ReadFromJsonAsync<JsonObject>())!["id"]!.GetValue<int>();
        var today = DateOnly.FromDateTime(local.DateTime);
        var first = soon.ToString("HH:mm", CultureInfo.InvariantCulture);
        var later = soon.AddMinutes(120).ToString("HH:mm", CultureInfo.InvariantCulture);
        var generated = await admin.PostAsJsonAsync("/api/admin/slots/generate", new
        {
            placeIds = new[] { place },
            from = Day(today),
            to = Day(today.AddDays(1)),
            template = new { firstStart = first, lastStart = later, intervalMinutes = 120, lengthMinutes = 10 },
            capacity = 5,
        });
        generated.EnsureSuccessStatusCode();
        return (place, first, later, today, today.AddDays(1));
    }

    private static HttpRequestMessage CheckIn(int place, string code, string? nationalId = null) =>
        new(HttpMethod.Post, $"/api/staff/places/{place}/check-ins") { Content = JsonContent.Create(new { code, nationalId }) };

    private static async Task<JsonArray> ArrayAsync(HttpResponseMessage response) =>
        JsonNode.Parse(await response.Content.ReadAsStringAsync(TestContext.Current.CancellationToken))!.AsArray();

    private static async Task<string> BookAsync(HttpClient client, int place, DateOnly day, string time, Person person)
    {
        var booked = await client.SendAsync(Reserve(place, day, time, person));
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        return (await JsonAsync(booked))["code"]!.GetValue<string>();
    }


    [Theory]
    [MemberData(nameof(StaffMatrix.Cases), MemberType = typeof(StaffMatrix))]
    public async Task Every_staff_endpoint_checks_role_and_place(string endpoint, string who, bool own, HttpStatusCode status, string? code)
    {
        var host = await StartAsync();
        var mine = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        var theirs = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        var client = who switch
        {
            "nobody" => host.Client(),
            "viewer-key" => host.ViewerClient(),
            "admin-key" => host.AdminClient(),
            _ => As(_tokens.For($"{who}-1", who, who == "admin" ? [] : [mine])),
        };
        var place = own ? mine : theirs;
        using var request = endpoint switch
        {
            "roster" => new HttpRequestMessage(HttpMethod.Get, $"/api/staff/places/{place}/roster"),
            "export" => new HttpRequestMessage(HttpMethod.Get, $"/api/staff/places/{place}/roster.csv"),
            "audit" => new HttpRequestMessage(HttpMethod.Get, $"/api/staff/places/{place}/audit"),
            "block-cancel" => new HttpRequestMessage(HttpMethod.Post, $"/api/staff/places/{place}/block-cancels")
            {
                Content = JsonContent.Create(new { day = Day(Today.AddDays(2)), from = "08:00", to = "08:20", reason = "Matrix" }),
            },
            "block-reopen" => new HttpRequestMessage(HttpMethod.Post, $"/api/staff/places/{place}/block-cancels/1/reopen"),
            "walk-in" => new HttpRequestMessage(HttpMethod.Post, $"/api/staff/places/{place}/walk-ins")
            {
                Headers = { { "Idempotency-Key", Guid.NewGuid().ToString() } },
                Content = JsonContent.Create(new { day = Day(Today.AddDays(2)), time = "08:00", name = "Ján Kováč", phone = "+421905000111", nationalId = "AB1234567" }),
            },
            _ => CheckIn(place, "AAAA-BBBB-CC"),
        };

        var response = await client.SendAsync(request);

        Assert.Equal(status, response.StatusCode);
        if (code is not null)
        {
            Assert.Equal("application/problem+json", response.Content.Headers.ContentType!.MediaType);
            Assert.Equal(code, await ProblemCodeAsync(response));
        }
    }

    [Fact]
    public async Task Tokens_that_do_not_hold_get_401_problems()
    {
        var host = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        string[] tokens =
        [
            _tokens.Expired("late", "site-staff", place),
            _tokens.ForAudience("another-api", "elsewhere", "site-staff", place),
            StaffTokens.Foreign("forger", "admin"),
            StaffTokens.WithoutSignature("anyone", "admin"),
            "not-a-token",
        ];

        foreach (var token in tokens)
        {
            var response = await As(token).GetAsync($"/api/staff/places/{place}/roster");
            Assert.Equal(HttpStatusCode.Unauthorized, response.StatusCode);
            Assert.Equal("unauthenticated", await ProblemCodeAsync(response));
        }
        Assert.Equal(HttpStatusCode.OK, (await As(_tokens.For("ok", "site-staff", place)).GetAsync($"/api/staff/places/{place}/roster")).StatusCode);
    }

    [Fact]
    public async Task Me_names_the_subject_role_and_places()
    {
        await StartAsync();

        var me = await JsonAsync(await As(_tokens.For("nurse-7", "site-staff", 12, 13)).GetAsync("/api/staff/me"));

        Assert.Equal("nurse-7", me["subject"]!.GetValue<string>());
        Assert.Equal("site-staff", me["role"]!.GetValue<string>());
        Assert.Equal([12, 13], me["places"]!.AsArray().Select(p => p!.GetValue<int>()));
    }

    [Fact]
    public async Task A_check_in_holds_once_shows_in_the_roster_and_trail_and_stops_the_citizens_cancel()
    {
        var host = await StartAsync();
        var (place, soon, _, today, _) = await PlaceOpenNowAsync(host.AdminClient());
        var person = People.Next();
        var code = await BookAsync(host.Client(), place, today, soon, person);
        var door = As(_tokens.For("nurse-1", "site-staff", place));

        var first = await door.SendAsync(CheckIn(place, code.ToLowerInvariant(), person.NationalId));
        var again = await As(_tokens.For("nurse-2", "site-staff", place)).SendAsync(CheckIn(place, code));

        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        var checkedIn = await JsonAsync(first);
        Assert.False(checkedIn["alreadyCheckedIn"]!.GetValue<bool>());
        Assert.Equal(soon, checkedIn["time"]!.GetValue<string>());
        Assert.Equal(HttpStatusCode.OK, again.StatusCode);
        var second = await JsonAsync(again);
        Assert.True(second["alreadyCheckedIn"]!.GetValue<bool>());
        Assert.Equal("nurse-1", second["by"]!.GetValue<string>());
        Assert.Equal(checkedIn["at"]!.GetValue<DateTimeOffset>(), second["at"]!.GetValue<DateTimeOffset>());

        var roster = await JsonAsync(await door.GetAsync($"/api/staff/places/{place}/roster?day={Day(today)}"));
        var row = Assert.Single(roster["rows"]!.AsArray());
        Assert.Equal("checked-in", row!["state"]!.GetValue<string>());
        Assert.Equal("nurse-1", row["by"]!.GetValue<string>());
        Assert.DoesNotContain(person.Phone[4..^3], row["phone"]!.GetValue<string>(), StringComparison.Ordinal);
        Assert.Equal(1, roster["counts"]!["checkedIn"]!.GetValue<int>());

        var cancel = await host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone));
        Assert.Equal(HttpStatusCode.Conflict, cancel.StatusCode);
        Assert.Equal("reservation-checked-in", await ProblemCodeAsync(cancel));

        var trail = await ArrayAsync(await As(_tokens.For("lead", "site-manager", place)).GetAsync($"/api/staff/places/{place}/audit"));
        var entry = Assert.Single(trail, e => e!["action"]!.GetValue<string>() == "check-in");
        Assert.Equal("nurse-1", entry!["actor"]!.GetValue<string>());
        Assert.Equal(code, entry["target"]!.GetValue<string>());
    }

    [Fact]
    public async Task A_checked_in_booking_cannot_be_moved_so_the_door_and_the_roster_agree_where_it_is()
    {
        var host = await StartAsync();
        var (place, soon, _, today, tomorrow) = await PlaceOpenNowAsync(host.AdminClient());
        var person = People.Next();
        var code = await BookAsync(host.Client(), place, today, soon, person);
        var door = As(_tokens.For("nurse-1", "site-staff", place));
        Assert.Equal(HttpStatusCode.OK, (await door.SendAsync(CheckIn(place, code))).StatusCode);

        var moved = await host.Client().SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{code}/reschedule", person.Phone,
            new { placeId = place, day = Day(tomorrow), time = soon }));

        Assert.Equal(HttpStatusCode.Conflict, moved.StatusCode);
        Assert.Equal("reservation-checked-in", await ProblemCodeAsync(moved));
        var stays = await JsonAsync(await door.GetAsync($"/api/staff/places/{place}/roster?day={Day(today)}"));
        var row = Assert.Single(stays["rows"]!.AsArray());
        Assert.Equal(code, row!["code"]!.GetValue<string>());
        Assert.Equal("checked-in", row["state"]!.GetValue<string>());
        var next = await JsonAsync(await door.GetAsync($"/api/staff/places/{place}/roster?day={Day(tomorrow)}"));
        Assert.Empty(next["rows"]!.AsArray());
        var again = await JsonAsync(await door.SendAsync(CheckIn(place, code)));
        Assert.True(again["alreadyCheckedIn"]!.GetValue<bool>());
    }

    [Fact]
    public async Task The_door_refuses_another_place_another_day_too_early_a_cancelled_booking_and_the_wrong_person()
    {
        var host = await StartAsync();
        var (place, soon, later, today, tomorrow) = await PlaceOpenNowAsync(host.AdminClient());
        var (other, _, _, _, _) = await PlaceOpenNowAsync(host.AdminClient());
        var door = As(_tokens.For("nurse", "site-staff", place, other));
        var now = People.Next();
        var early = People.Next();
        var next = People.Next();
        var gone = People.Next();
        var nowCode = await BookAsync(host.Client(), place, today, soon, now);
        var earlyCode = await BookAsync(host.Client(), place, today, later, early);
        var nextCode = await BookAsync(host.Client(), place, tomorrow, soon, next);
        var goneCode = await BookAsync(host.Client(), place, today, soon, gone);
        Assert.Equal(HttpStatusCode.NoContent,
            (await host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{goneCode}", gone.Phone))).StatusCode);

        Assert.Equal("check-in-other-place", await ProblemCodeAsync(await door.SendAsync(CheckIn(other, nowCode))));
        Assert.Equal("check-in-other-day", await ProblemCodeAsync(await door.SendAsync(CheckIn(place, nextCode))));
        Assert.Equal("check-in-too-early", await ProblemCodeAsync(await door.SendAsync(CheckIn(place, earlyCode))));
        Assert.Equal("check-in-cancelled", await ProblemCodeAsync(await door.SendAsync(CheckIn(place, goneCode))));
        Assert.Equal("check-in-not-the-person", await ProblemCodeAsync(await door.SendAsync(CheckIn(place, nowCode, early.NationalId))));
        Assert.Equal(HttpStatusCode.OK, (await door.SendAsync(CheckIn(place, nowCode, now.NationalId))).StatusCode);
    }

    // The no-show job's work, asked of the backend as the job asks it: with the grace an hour negative,
    // a slot that ends in half an hour counts as over. A late arrival is still checked in over it.
    [Fact]
    public async Task Bookings_nobody_checked_in_become_no_shows_once_and_the_door_can_still_check_them_in()
    {
        var host = await StartAsync();
        var (place, soon, _, today, _) = await PlaceOpenNowAsync(host.AdminClient());
        var early = People.Next();
        var late = People.Next();
        var earlyCode = await BookAsync(host.Client(), place, today, soon, early);
        var lateCode = await BookAsync(host.Client(), place, today, soon, late);
        var door = As(_tokens.For("nurse", "site-staff", place));
        Assert.Equal(HttpStatusCode.OK, (await door.SendAsync(CheckIn(place, earlyCode))).StatusCode);
        var store = host.Services.GetRequiredService<Slots.Staff.IStaffStore>();
        var now = DateTimeOffset.FromUnixTimeSeconds(DateTimeOffset.UtcNow.ToUnixTimeSeconds());

        var marked = await store.MarkNoShowsAsync(now.AddHours(1), now, 100, TestContext.Current.CancellationToken);
        var again = await store.MarkNoShowsAsync(now.AddHours(1), now, 100, TestContext.Current.CancellationToken);

        Assert.Equal([place], marked);
        Assert.Empty(again);
        var roster = await JsonAsync(await door.GetAsync($"/api/staff/places/{place}/roster?day={Day(today)}&state=no-show"));
        Assert.Equal(lateCode, Assert.Single(roster["rows"]!.AsArray())!["code"]!.GetValue<string>());
        Assert.Equal(1, roster["counts"]!["noShow"]!.GetValue<int>());

        var arrived = await door.SendAsync(CheckIn(place, lateCode));

        Assert.Equal(HttpStatusCode.OK, arrived.StatusCode);
        Assert.False((await JsonAsync(arrived))["alreadyCheckedIn"]!.GetValue<bool>());
        var after = await JsonAsync(await door.GetAsync($"/api/staff/places/{place}/roster?day={Day(today)}"));
        Assert.Equal(2, after["counts"]!["checkedIn"]!.GetValue<int>());
        Assert.Equal(0, after["counts"]!["noShow"]!.GetValue<int>());
        var trail = await ArrayAsync(await As(_tokens.For("lead", "site-manager", place)).GetAsync($"/api/staff/places/{place}/audit"));
        Assert.Contains(trail, e => e!["action"]!.GetValue<string>() == "no-show-override" && e["target"]!.GetValue<string>() == lateCode);
    }

    // Issue #28: the door's check-ins and no-shows per day in the admin stats, for every place or one.
    [Fact]
    public async Task Stats_count_check_ins_and_no_shows_per_day_and_narrow_them_to_one_place()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var (place, soon, _, today, _) = await PlaceOpenNowAsync(admin);
        var (other, otherSoon, _, _, _) = await PlaceOpenNowAsync(admin);
        var came = await BookAsync(host.Client(), place, today, soon, People.Next());
        await BookAsync(host.Client(), place, today, soon, People.Next());
        var cameThere = await BookAsync(host.Client(), other, today, otherSoon, People.Next());
        var door = As(_tokens.For("nurse", "site-staff", place, other));
        Assert.Equal(HttpStatusCode.OK, (await door.SendAsync(CheckIn(place, came))).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await door.SendAsync(CheckIn(other, cameThere))).StatusCode);
        var now = DateTimeOffset.FromUnixTimeSeconds(DateTimeOffset.UtcNow.ToUnixTimeSeconds());
        await host.Services.GetRequiredService<Slots.Staff.IStaffStore>().MarkNoShowsAsync(now.AddHours(1), now, 100, TestContext.Current.CancellationToken);

        async Task<JsonNode> DayAsync(string filter) =>
            Assert.Single((await JsonAsync(await host.ViewerClient().GetAsync($"/api/admin/stats?from={Day(today)}&to={Day(today)}{filter}")))["days"]!.AsArray())!;
        var all = await DayAsync("");
        var here = await DayAsync($"&placeId={place}");
        var there = await DayAsync($"&placeId={other}");

        Assert.Equal((3L, 2L, 1L), (all["reservations"]!.GetValue<long>(), all["checkedIn"]!.GetValue<long>(), all["noShows"]!.GetValue<long>()));
        Assert.Equal((2L, 1L, 1L), (here["reservations"]!.GetValue<long>(), here["checkedIn"]!.GetValue<long>(), here["noShows"]!.GetValue<long>()));
        Assert.Equal((1L, 1L, 0L), (there["reservations"]!.GetValue<long>(), there["checkedIn"]!.GetValue<long>(), there["noShows"]!.GetValue<long>()));
        Assert.Equal(2, here["slots"]!.GetValue<int>());
        Assert.Equal(4, all["slots"]!.GetValue<int>());
    }

    // Exactly one of the two wins, however they interleave; the loser is told why.
    [Fact]
    public async Task A_check_in_racing_the_citizens_cancel_has_exactly_one_winner()
    {
        var host = await StartAsync();
        var (place, soon, _, today, _) = await PlaceOpenNowAsync(host.AdminClient());
        var door = As(_tokens.For("nurse", "site-staff", place));
        for (var round = 0; round < 5; round++)
        {
            var person = People.Next();
            var code = await BookAsync(host.Client(), place, today, soon, person);

            var checkIn = door.SendAsync(CheckIn(place, code));
            var cancel = host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone));
            var (ci, ca) = (await checkIn, await cancel);

            var checkedIn = ci.StatusCode == HttpStatusCode.OK;
            var cancelled = ca.StatusCode == HttpStatusCode.NoContent;
            Assert.True(checkedIn ^ cancelled, $"round {round}: check-in {(int)ci.StatusCode}, cancel {(int)ca.StatusCode}");
            Assert.Equal(checkedIn ? "reservation-checked-in" : "check-in-cancelled", await ProblemCodeAsync(checkedIn ? ca : ci));
        }
    }

    [Fact]
    public async Task The_roster_shows_cancelled_bookings_filters_and_serves_disk_days()
    {
        var host = await StartAsync();
        var coldDay = Today.AddDays(40);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 3);
        var cold = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 3, day: coldDay);
        var day = Today.AddDays(2);
        var kept = People.Next();
        var gone = People.Next();
        var keptCode = await BookAsync(host.Client(), place, day, "08:00", kept);
        var goneCode = await BookAsync(host.Client(), place, day, "08:10", gone);
        await host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{goneCode}", gone.Phone));
        var coldCode = await BookAsync(host.Client(), cold, coldDay, "08:20", People.Next());
        var admin = As(_tokens.For("ops", "admin"));

        var all = await JsonAsync(await admin.GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}"));
        var cancelled = await JsonAsync(await admin.GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}&state=cancelled"));
        var late = await JsonAsync(await admin.GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}&from=08:05"));
        var byCode = await JsonAsync(await admin.GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}&code={keptCode}"));
        var disk = await JsonAsync(await admin.GetAsync($"/api/staff/places/{cold}/roster?day={Day(coldDay)}"));

        Assert.Equal([keptCode, goneCode], all["rows"]!.AsArray().Select(r => r!["code"]!.GetValue<string>()));
        Assert.Equal(1, all["counts"]!["booked"]!.GetValue<int>());
        Assert.Equal(1, all["counts"]!["cancelled"]!.GetValue<int>());
        Assert.Equal(goneCode, Assert.Single(cancelled["rows"]!.AsArray())!["code"]!.GetValue<string>());
        Assert.Equal(goneCode, Assert.Single(late["rows"]!.AsArray())!["code"]!.GetValue<string>());
        Assert.Equal(keptCode, Assert.Single(byCode["rows"]!.AsArray())!["code"]!.GetValue<string>());
        Assert.Equal(coldCode, Assert.Single(disk["rows"]!.AsArray())!["code"]!.GetValue<string>());
        Assert.Equal("08:20", disk["rows"]![0]!["time"]!.GetValue<string>());
        Assert.Equal(10, disk["rows"]![0]!["minutes"]!.GetValue<int>());
    }

    [Fact]
    public async Task A_roster_page_past_the_first_holds_its_bookings_in_order_with_their_people_and_the_days_counts()
    {
        var host = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2);
        var day = Today.AddDays(2);
        var people = Enumerable.Range(0, 5).Select(_ => People.Next()).ToList();
        var codes = new List<string>();
        foreach (var (person, time) in people.Zip(["08:00", "08:00", "08:10", "08:10", "08:20"]))
        {
            codes.Add(await BookAsync(host.Client(), place, day, time, person));
        }
        // The first goes: its cancel (a change record, or a disk row once flushed) still belongs to the day.
        await host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{codes[0]}", people[0].Phone));
        var admin = As(_tokens.For("ops", "admin"));

        var second = await JsonAsync(await admin.GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}&page=2&pageSize=2"));
        var third = await JsonAsync(await admin.GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}&page=3&pageSize=2"));
        var late = await JsonAsync(await admin.GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}&from=08:05&pageSize=1"));

        // Ordered by start, seat and state: the 08:00 pair (seats 1 and 2), the 08:10 pair, then 08:20.
        var rows = second["rows"]!.AsArray();
        Assert.Equal([codes[2], codes[3]], rows.Select(r => r!["code"]!.GetValue<string>()));
        Assert.Equal([people[2].Name, people[3].Name], rows.Select(r => r!["name"]!.GetValue<string>()));
        Assert.All(rows, r => Assert.Equal("booked", r!["state"]!.GetValue<string>()));
        Assert.Equal(5, second["total"]!.GetValue<int>());
        Assert.Equal(4, second["counts"]!["booked"]!.GetValue<int>());
        Assert.Equal(1, second["counts"]!["cancelled"]!.GetValue<int>());
        Assert.Equal(codes[4], Assert.Single(third["rows"]!.AsArray())!["code"]!.GetValue<string>());
        Assert.Equal(people[4].Name, third["rows"]![0]!["name"]!.GetValue<string>());
        // A full page under a filter: the matching bookings are counted, not only the page's.
        Assert.Equal(codes[2], Assert.Single(late["rows"]!.AsArray())!["code"]!.GetValue<string>());
        Assert.Equal(3, late["total"]!.GetValue<int>());
        Assert.Equal(4, late["counts"]!["booked"]!.GetValue<int>());
    }

    [Fact]
    public async Task Creating_a_place_and_generating_its_slots_are_in_the_trail_with_the_key_that_did_it()
    {
        var host = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);

        var trail = await ArrayAsync(await As(_tokens.For("lead", "site-manager", place)).GetAsync($"/api/staff/places/{place}/audit"));

        Assert.Equal(["slots-generated", "place-created"], trail.Select(e => e!["action"]!.GetValue<string>()));
        Assert.All(trail, e => Assert.Equal("tests", e!["actor"]!.GetValue<string>()));
    }

    [Fact]
    public async Task The_export_is_rfc_4180_utf8_with_a_bom_and_recorded_in_the_trail()
    {
        var host = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 3);
        var day = Today.AddDays(2);
        var person = People.Next() with { Name = "Ľubomír \"Ľubo\" Šťastný, ml." };
        var formula = People.Next() with { Name = "=HYPERLINK(\"x\")" };
        await BookAsync(host.Client(), place, day, "08:00", person);
        await BookAsync(host.Client(), place, day, "08:10", formula);
        var manager = As(_tokens.For("lead", "site-manager", place));

        var export = await manager.GetAsync($"/api/staff/places/{place}/roster.csv?day={Day(day)}");

        Assert.Equal(HttpStatusCode.OK, export.StatusCode);
        Assert.Equal("text/csv", export.Content.Headers.ContentType!.MediaType);
        var bytes = await export.Content.ReadAsByteArrayAsync(TestContext.Current.CancellationToken);
        Assert.Equal([0xEF, 0xBB, 0xBF], bytes[..3]);
        var text = Encoding.UTF8.GetString(bytes, 3, bytes.Length - 3);
        var lines = text.Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal("time,minutes,seat,code,name,phone,language,state,at,by,service", lines[0]);
        Assert.Contains(",\"Ľubomír \"\"Ľubo\"\" Šťastný, ml.\",", lines[1], StringComparison.Ordinal);
        Assert.DoesNotContain(",=HYPERLINK", lines[2], StringComparison.Ordinal);
        var trail = await ArrayAsync(await manager.GetAsync($"/api/staff/places/{place}/audit"));
        Assert.Equal(Day(day), Assert.Single(trail, e => e!["action"]!.GetValue<string>() == "roster-export")!["target"]!.GetValue<string>());
    }
}

/// <summary>Every staff endpoint × who asks × their own place or another, with the answer each must get.</summary>
public static class StaffMatrix
{
    public static TheoryData<string, string, bool, HttpStatusCode, string?> Cases => new()
    {
        // endpoint, who, at their own place, status, problem code
        { "roster", "nobody", true, HttpStatusCode.Unauthorized, "unauthenticated" },
        { "roster", "viewer-key", true, HttpStatusCode.Forbidden, "forbidden" },
        { "roster", "site-staff", true, HttpStatusCode.OK, null },
        { "roster", "site-staff", false, HttpStatusCode.Forbidden, "place-forbidden" },
        { "roster", "site-manager", true, HttpStatusCode.OK, null },
        { "roster", "site-manager", false, HttpStatusCode.Forbidden, "place-forbidden" },
        { "roster", "admin", false, HttpStatusCode.OK, null },
        { "roster", "admin-key", false, HttpStatusCode.OK, null },
        { "export", "nobody", true, HttpStatusCode.Unauthorized, "unauthenticated" },
        { "export", "viewer-key", true, HttpStatusCode.Forbidden, "forbidden" },
        { "export", "site-staff", true, HttpStatusCode.Forbidden, "forbidden" },
        { "export", "site-staff", false, HttpStatusCode.Forbidden, "forbidden" },
        { "export", "site-manager", true, HttpStatusCode.OK, null },
        { "export", "site-manager", false, HttpStatusCode.Forbidden, "place-forbidden" },
        { "export", "admin", false, HttpStatusCode.OK, null },
        { "export", "admin-key", false, HttpStatusCode.OK, null },
        { "check-in", "nobody", true, HttpStatusCode.Unauthorized, "unauthenticated" },
        { "check-in", "viewer-key", true, HttpStatusCode.Forbidden, "forbidden" },
        { "check-in", "site-staff", true, HttpStatusCode.NotFound, "reservation-not-found" },
        { "check-in", "site-staff", false, HttpStatusCode.Forbidden, "place-forbidden" },
        { "check-in", "site-manager", true, HttpStatusCode.NotFound, "reservation-not-found" },
        { "check-in", "site-manager", false, HttpStatusCode.Forbidden, "place-forbidden" },
        { "check-in", "admin", false, HttpStatusCode.NotFound, "reservation-not-found" },
        { "check-in", "admin-key", false, HttpStatusCode.NotFound, "reservation-not-found" },
        { "audit", "nobody", true, HttpStatusCode.Unauthorized, "unauthenticated" },
        { "audit", "viewer-key", true, HttpStatusCode.Forbidden, "forbidden" },
        { "audit", "site-staff", true, HttpStatusCode.Forbidden, "forbidden" },
        { "audit", "site-staff", false, HttpStatusCode.Forbidden, "forbidden" },
        { "audit", "site-manager", true, HttpStatusCode.OK, null },
        { "audit", "site-manager", false, HttpStatusCode.Forbidden, "place-forbidden" },
        { "audit", "admin", false, HttpStatusCode.OK, null },
        { "audit", "admin-key", false, HttpStatusCode.OK, null },
        { "block-reopen", "nobody", true, HttpStatusCode.Unauthorized, "unauthenticated" },
        { "block-reopen", "site-staff", true, HttpStatusCode.Forbidden, "forbidden" },
        { "block-reopen", "site-manager", false, HttpStatusCode.Forbidden, "place-forbidden" },
        { "block-reopen", "site-manager", true, HttpStatusCode.NotFound, "block-not-found" },
        { "block-reopen", "admin-key", false, HttpStatusCode.NotFound, "block-not-found" },
        { "block-cancel", "nobody", true, HttpStatusCode.Unauthorized, "unauthenticated" },
        { "block-cancel", "viewer-key", true, HttpStatusCode.Forbidden, "forbidden" },
        { "block-cancel", "site-staff", true, HttpStatusCode.Forbidden, "forbidden" },
        { "block-cancel", "site-staff", false, HttpStatusCode.Forbidden, "forbidden" },
        { "block-cancel", "site-manager", true, HttpStatusCode.OK, null },
        { "block-cancel", "site-manager", false, HttpStatusCode.Forbidden, "place-forbidden" },
        { "block-cancel", "admin", false, HttpStatusCode.OK, null },
        { "block-cancel", "admin-key", false, HttpStatusCode.OK, null },
        { "walk-in", "nobody", true, HttpStatusCode.Unauthorized, "unauthenticated" },
        { "walk-in", "viewer-key", true, HttpStatusCode.Forbidden, "forbidden" },
        { "walk-in", "site-staff", true, HttpStatusCode.Created, null },
        { "walk-in", "site-staff", false, HttpStatusCode.Forbidden, "place-forbidden" },
        { "walk-in", "site-manager", true, HttpStatusCode.Created, null },
        { "walk-in", "site-manager", false, HttpStatusCode.Forbidden, "place-forbidden" },
        { "walk-in", "admin", false, HttpStatusCode.Created, null },
        { "walk-in", "admin-key", false, HttpStatusCode.Created, null },
    };
}
