using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Staff;

/// <summary>
/// Walk-ins and bookings on someone's behalf, on every backend (issue 41 item 4): site staff book at
/// their place under the person's own rules (who may book, one booking per person and service, the
/// Idempotency-Key), the trail says who booked, the SMS is optional and "check in now" follows in the
/// same request. Hot and disk days alike; the role and place matrix is StaffContract's.
/// </summary>
public abstract class WalkInContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private static readonly DateOnly HotDay = Today.AddDays(2);
    private static readonly DateOnly DiskDay = Today.AddDays(40);
    private readonly StaffTokens _tokens = new();

    private HttpClient As(SlotsHost host, string subject, string role, int place)
    {
        var client = host.Client();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _tokens.For(subject, role, place));
        return client;
    }

    private static HttpRequestMessage WalkIn(int place, DateOnly? day, string time, Person person, bool? sms = null, bool? checkIn = null,
        string? key = null) =>
        new(HttpMethod.Post, $"/api/staff/places/{place}/walk-ins")
        {
            Headers = { { "Idempotency-Key", key ?? Guid.NewGuid().ToString() } },
            Content = JsonContent.Create(new
            {
                day = day is { } d ? Day(d) : null,
                time,
                name = person.Name,
                phone = person.Phone,
                nationalId = person.NationalId,
                sms,
                checkIn,
            }),
        };

    private static async Task<JsonArray> WalkInTrailAsync(HttpClient manager, int place, string code)
    {
        var trail = JsonNode.Parse(await manager.GetStringAsync($"/api/staff/places/{place}/audit?from={Day(Today.AddDays(-1))}&to={Day(Today)}"))!
            .AsArray();
        return [.. trail.Where(e => e!["action"]!.GetValue<string>() == "walk-in" && e["target"]!.GetValue<string>() == code)
            .Select(e => e!.DeepClone())];
    }

    [Fact]
    public async Task Staff_book_for_a_person_under_the_person_s_own_rules_and_the_trail_says_who()
    {
        var host = NewHost(await CreateDatabaseAsync("db"), _tokens.Settings);
        var place = await CreatePlaceWithHotAndDiskDaysAsync(host.AdminClient(), capacity: 5, HotDay, DiskDay);
        var staff = As(host, "door-1", "site-staff", place);
        var manager = As(host, "boss-1", "site-manager", place);

        foreach (var day in new[] { HotDay, DiskDay })
        {
            var person = People.Next();
            var key = Guid.NewGuid().ToString();
            var booked = await staff.SendAsync(WalkIn(place, day, "08:00", person, key: key));

            Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
            var answer = await JsonAsync(booked);
            var code = answer["reservation"]!["code"]!.GetValue<string>();
            Assert.True(answer["sms"]!.GetValue<bool>());
            Assert.Null(answer["checkIn"]);
            Assert.Equal(HttpStatusCode.OK, (await host.Client().SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone))).StatusCode);
            var entry = Assert.Single(await WalkInTrailAsync(manager, place, code))!;
            Assert.Equal("door-1", entry["actor"]!.GetValue<string>());
            Assert.Equal("sms", entry["reason"]!.GetValue<string>());
            Assert.DoesNotContain(person.Name, entry.ToJsonString(), StringComparison.Ordinal);

            // A retry answers the first booking; the trail still holds one entry.
            var again = await staff.SendAsync(WalkIn(place, day, "08:00", person, key: key));
            Assert.Equal(HttpStatusCode.Created, again.StatusCode);
            Assert.True(again.Headers.Contains("Idempotent-Replayed"));
            Assert.Equal(code, (await JsonAsync(again))["reservation"]!["code"]!.GetValue<string>());
            Assert.Single(await WalkInTrailAsync(manager, place, code));

            // One active booking per person and service, whoever books it.
            var twice = await staff.SendAsync(WalkIn(place, day, "08:10", person));
            Assert.Equal(HttpStatusCode.Conflict, twice.StatusCode);
            Assert.Equal("already-booked", await ProblemCodeAsync(twice));
            Assert.Equal(HttpStatusCode.NoContent,
                (await host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone))).StatusCode);
        }
    }

    [Fact]
    public async Task The_service_s_rule_refuses_a_walk_in_as_it_refuses_the_person()
    {
        var host = NewHost(await CreateDatabaseAsync("db"), _tokens.Settings);
        var admin = host.AdminClient();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 5, HotDay, DiskDay);
        (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new
        {
            rule = "age",
            steps = new[] { new { opensAt = "2020-01-01T00:00:00Z", bornOnOrBefore = "1960-12-31" } },
        })).EnsureSuccessStatusCode();
        var staff = As(host, "door-2", "site-staff", place);

        foreach (var (day, old) in new[] { (HotDay, "5503100020"), (DiskDay, "5503100031") })
        {
            var young = await staff.SendAsync(WalkIn(place, day, "08:00", People.Next() with { NationalId = "8506150026" }));
            Assert.Equal(HttpStatusCode.Forbidden, young.StatusCode);
            Assert.Equal("too-young", (await JsonAsync(young))["reason"]!.GetValue<string>());
            Assert.Equal(5, await FreeSeatsAsync(host.Client(), place, day, "08:00"));
            Assert.Equal(HttpStatusCode.Created,
                (await staff.SendAsync(WalkIn(place, day, "08:00", People.Next() with { NationalId = old }))).StatusCode);
        }
    }

    [Fact]
    public async Task A_walk_in_without_an_sms_sends_none_and_says_so_in_the_trail()
    {
        var host = NewHost(await CreateDatabaseAsync("db"), _tokens.Settings);
        var place = await CreatePlaceWithHotAndDiskDaysAsync(host.AdminClient(), capacity: 5, HotDay, DiskDay);
        var staff = As(host, "phone-desk", "site-staff", place);
        var manager = As(host, "boss-2", "site-manager", place);

        foreach (var day in new[] { HotDay, DiskDay })
        {
            var person = People.Next();
            var booked = await staff.SendAsync(WalkIn(place, day, "08:20", person, sms: false));

            Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
            var code = (await JsonAsync(booked))["reservation"]!["code"]!.GetValue<string>();
            Assert.False((await JsonAsync(booked))["sms"]!.GetValue<bool>());
            Assert.Equal("no-sms", Assert.Single(await WalkInTrailAsync(manager, place, code))!["reason"]!.GetValue<string>());
            var held = await JsonAsync(await host.Client().SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}/personal-data", person.Phone)));
            Assert.Single(held["bookings"]!.AsArray());
            Assert.Empty(held["sms"]!.AsArray());
        }
    }

    [Fact]
    public async Task Check_in_now_checks_a_person_at_the_door_in_and_a_refused_check_in_leaves_the_booking()
    {
        var host = NewHost(await CreateDatabaseAsync("db"), _tokens.Settings);
        // A place whose clock reads noon now, with a slot soon and one two hours later (StaffContract's).
        var (place, first, later, today, _) = await StaffContract<TBackend>.PlaceOpenNowAsync(host.AdminClient());
        var staff = As(host, "door-3", "site-staff", place);

        var now = await staff.SendAsync(WalkIn(place, null, first, People.Next(), checkIn: true));
        Assert.Equal(HttpStatusCode.Created, now.StatusCode);
        var answer = await JsonAsync(now);
        Assert.Equal("checked-in", answer["checkIn"]!.GetValue<string>());
        var code = answer["reservation"]!["code"]!.GetValue<string>();
        var roster = JsonNode.Parse(await staff.GetStringAsync($"/api/staff/places/{place}/roster"))!;
        var row = roster["rows"]!.AsArray().Single(r => r!["code"]!.GetValue<string>() == code)!;
        Assert.Equal("checked-in", row["state"]!.GetValue<string>());
        Assert.Equal("door-3", row["by"]!.GetValue<string>());

        var early = await staff.SendAsync(WalkIn(place, null, later, People.Next(), checkIn: true));
        Assert.Equal(HttpStatusCode.Created, early.StatusCode);
        Assert.Equal("too-early", (await JsonAsync(early))["checkIn"]!.GetValue<string>());
        Assert.Equal(4, await FreeSeatsAsync(host.Client(), place, today, later));
    }
}
