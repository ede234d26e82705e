using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Slots.Testing.Web;
using Slots.WaitingList;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Campaign;

/// <summary>
/// Services as clients and admins use them (issue 41, item 1): a place with one service works for
/// clients that name none, exactly as before; a place with several asks which; each service has its
/// own seats at the same minute; one active booking per person per service; slots come from the
/// service's stored template; admins' writes are validated naming the field.
/// </summary>
public abstract class ServiceContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
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
    public async Task A_single_service_place_books_and_reads_availability_without_naming_a_service()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, day: day);
        var person = People.Next();
        var key = Guid.NewGuid().ToString();

        var unnamed = await host.Client().GetAsync($"/api/places/{place}/availability?from={Day(day)}&to={Day(day)}", ct);
        var named = await host.Client().GetAsync($"/api/places/{place}/availability?from={Day(day)}&to={Day(day)}&service=default", ct);
        var booked = await host.Client().SendAsync(Reserve(place, day, "08:00", person, key), ct);
        var replayed = await host.Client().SendAsync(Reserve(place, day, "08:00", person, key), ct); // the old body, the same key

        Assert.Equal(HttpStatusCode.OK, unnamed.StatusCode);
        var slots = (await JsonAsync(unnamed))["days"]!.AsArray().Single()!["slots"]!.AsArray();
        Assert.Equal(6, slots.Count);
        Assert.Equal("default", (await JsonAsync(named))["service"]!.GetValue<string>());
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        var reservation = await JsonAsync(booked);
        Assert.Equal("default", reservation["service"]!.GetValue<string>());
        Assert.Equal(HttpStatusCode.Created, replayed.StatusCode);
        Assert.Equal("true", replayed.Headers.GetValues("Idempotent-Replayed").Single());
        Assert.Equal(reservation["code"]!.GetValue<string>(), (await JsonAsync(replayed))["code"]!.GetValue<string>());
        var found = await host.Client().SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{reservation["code"]}", person.Phone), ct);
        Assert.Equal("default", (await JsonAsync(found))["service"]!.GetValue<string>());
        Assert.Equal(1, await FreeSeatsAsync(host.Client(), place, day, "08:00"));
    }

    [Fact]
    public async Task A_two_service_place_refuses_an_unnamed_booking_naming_service_with_its_codes()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await TwoServicePlaceAsync(host, day);

        var unnamed = await host.Client().SendAsync(Reserve(place, day, "08:00", People.Next()), ct);
        var unnamedRead = await host.Client().GetAsync($"/api/places/{place}/availability?from={Day(day)}&to={Day(day)}", ct);
        var unknown = await host.Client().SendAsync(Reserve(place, day, "08:00", People.Next(), service: "booster"), ct);
        var unknownRead = await host.Client().GetAsync($"/api/places/{place}/availability?service=booster", ct);
        var malformed = await host.Client().SendAsync(Reserve(place, day, "08:00", People.Next(), service: "PCR!"), ct);

        await AssertInvalidAsync(unnamed, "service");
        var message = (await JsonAsync(unnamed))["errors"]!["service"]!.AsArray().Single()!.GetValue<string>();
        Assert.Contains("default", message, StringComparison.Ordinal);
        Assert.Contains("pcr", message, StringComparison.Ordinal);
        await AssertInvalidAsync(unnamedRead, "service");
        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
        Assert.Equal("unknown-service", await ProblemCodeAsync(unknown));
        Assert.Equal("unknown-service", await ProblemCodeAsync(unknownRead));
        await AssertInvalidAsync(malformed, "service");
        var page = await host.Client().GetFromJsonAsync<JsonObject>($"/api/places/{place}", ct);
        Assert.Equal(["default", "pcr"], page!["services"]!.AsArray().Select(s => s!["code"]!.GetValue<string>()));
    }

    [Fact]
    public async Task Antigen_and_PCR_at_the_same_minute_book_independently()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await TwoServicePlaceAsync(host, day, defaultSeats: 1, pcrSeats: 1, sameMinutes: true);

        var antigen = await host.Client().SendAsync(Reserve(place, day, "08:00", People.Next(), service: "default"), ct);
        var pcr = await host.Client().SendAsync(Reserve(place, day, "08:00", People.Next(), service: "pcr"), ct);
        var antigenAgain = await host.Client().SendAsync(Reserve(place, day, "08:00", People.Next(), service: "default"), ct);

        Assert.Equal(HttpStatusCode.Created, antigen.StatusCode);
        Assert.Equal(HttpStatusCode.Created, pcr.StatusCode);
        Assert.Equal("pcr", (await JsonAsync(pcr))["service"]!.GetValue<string>());
        Assert.Equal("slot-full", await ProblemCodeAsync(antigenAgain));
        foreach (var service in new[] { "default", "pcr" })
        {
            var read = await host.Client().GetFromJsonAsync<JsonObject>(
                $"/api/places/{place}/availability?from={Day(day)}&to={Day(day)}&service={service}", ct);
            Assert.Equal(service, read!["service"]!.GetValue<string>());
            var at8 = read["days"]!.AsArray().Single()!["slots"]!.AsArray().Single(s => s!["time"]!.GetValue<string>() == "08:00")!;
            Assert.Equal(0, at8["free"]!.GetValue<int>());
        }
    }

    [Fact]
    public async Task One_person_holds_one_booking_per_service_and_a_second_of_the_same_service_is_already_booked()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await TwoServicePlaceAsync(host, day);
        var person = People.Next();

        var antigen = await host.Client().SendAsync(Reserve(place, day, "08:00", person, service: "default"), ct);
        var pcr = await host.Client().SendAsync(Reserve(place, day, "09:00", person, service: "pcr"), ct);
        var secondAntigen = await host.Client().SendAsync(Reserve(place, day, "08:20", person, service: "default"), ct);

        Assert.Equal(HttpStatusCode.Created, antigen.StatusCode);
        Assert.Equal(HttpStatusCode.Created, pcr.StatusCode);
        Assert.Equal(HttpStatusCode.Conflict, secondAntigen.StatusCode);
        Assert.Equal("already-booked", await ProblemCodeAsync(secondAntigen));
        Assert.Equal((await JsonAsync(antigen))["code"]!.GetValue<string>(), (await JsonAsync(secondAntigen))["existingCode"]!.GetValue<string>());
    }

    [Fact]
    public async Task The_roster_and_its_CSV_show_the_service_of_each_booking()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await TwoServicePlaceAsync(host, day);
        var antigen = await JsonAsync(await host.Client().SendAsync(Reserve(place, day, "08:00", People.Next(), service: "default"), ct));
        var pcr = await JsonAsync(await host.Client().SendAsync(Reserve(place, day, "09:00", People.Next(), service: "pcr"), ct));

        var roster = await host.AdminClient().GetFromJsonAsync<JsonObject>($"/api/staff/places/{place}/roster?day={Day(day)}", ct);
        var csv = await host.AdminClient().GetStringAsync($"/api/staff/places/{place}/roster.csv?day={Day(day)}", ct);

        var services = roster!["rows"]!.AsArray().ToDictionary(r => r!["code"]!.GetValue<string>(), r => r!["service"]!.GetValue<string>());
        Assert.Equal("default", services[antigen["code"]!.GetValue<string>()]);
        Assert.Equal("pcr", services[pcr["code"]!.GetValue<string>()]);
        var lines = csv.TrimStart('\uFEFF').Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        Assert.EndsWith(",service", lines[0], StringComparison.Ordinal);
        Assert.Contains(lines, l => l.Contains(pcr["code"]!.GetValue<string>(), StringComparison.Ordinal) && l.EndsWith(",pcr", StringComparison.Ordinal));
        Assert.Contains(lines, l => l.Contains(antigen["code"]!.GetValue<string>(), StringComparison.Ordinal) && l.EndsWith(",default", StringComparison.Ordinal));
        var onlyPcr = await host.AdminClient().GetFromJsonAsync<JsonObject>($"/api/staff/places/{place}/roster?day={Day(day)}&service=pcr", ct);
        Assert.Equal([pcr["code"]!.GetValue<string>()], onlyPcr!["rows"]!.AsArray().Select(r => r!["code"]!.GetValue<string>()));
        var unknown = await host.AdminClient().GetAsync($"/api/staff/places/{place}/roster?day={Day(day)}&service=booster", ct);
        Assert.Equal("unknown-service", await ProblemCodeAsync(unknown));
        var pcrCsv = await host.AdminClient().GetStringAsync($"/api/staff/places/{place}/roster.csv?day={Day(day)}&service=pcr", ct);
        var pcrLines = pcrCsv.TrimStart('\uFEFF').Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(2, pcrLines.Length);
        Assert.Contains(pcr["code"]!.GetValue<string>(), pcrLines[1], StringComparison.Ordinal);
        var unknownCsv = await host.AdminClient().GetAsync($"/api/staff/places/{place}/roster.csv?day={Day(day)}&service=booster", ct);
        Assert.Equal("unknown-service", await ProblemCodeAsync(unknownCsv));
    }

    [Fact]
    public async Task Admins_read_every_service_inactive_ones_too_and_what_a_place_offers_with_its_seats_and_template()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var place = await TwoServicePlaceAsync(host, Today.AddDays(2)); // PCR: 2 seats, 09:00-09:30 every 15 minutes
        var admin = host.AdminClient();
        var stopped = await admin.PutAsJsonAsync("/api/admin/services/pcr", new { nameSk = "PCR test", nameEn = "PCR test", active = false }, ct);
        stopped.EnsureSuccessStatusCode();

        var services = await admin.GetFromJsonAsync<JsonArray>("/api/admin/services", ct);
        var offers = await admin.GetFromJsonAsync<JsonArray>($"/api/admin/places/{place}/services", ct);
        var unknown = await admin.GetAsync("/api/admin/places/999999/services", ct);
        var malformed = await admin.GetAsync("/api/admin/places/first/services", ct);
        var viewer = await host.ViewerClient().GetFromJsonAsync<JsonArray>("/api/admin/services", ct); // for the statistics' filter
        var viewerOffers = await host.ViewerClient().GetAsync($"/api/admin/places/{place}/services", ct);

        Assert.Equal([("default", true), ("pcr", false)], services!.Select(s => (s!["code"]!.GetValue<string>(), s["active"]!.GetValue<bool>())));
        Assert.Equal(["default", "pcr"], offers!.Select(o => o!["service"]!.GetValue<string>()));
        var pcr = offers![1]!;
        Assert.Equal((place, true, 2), (pcr["placeId"]!.GetValue<int>(), pcr["active"]!.GetValue<bool>(), pcr["seats"]!.GetValue<int>()));
        var template = pcr["template"]!;
        Assert.Equal(("09:00", "09:30", 15, 15), (template["firstStart"]!.GetValue<string>(), template["lastStart"]!.GetValue<string>(),
            template["intervalMinutes"]!.GetValue<int>(), template["lengthMinutes"]!.GetValue<int>()));
        Assert.Equal((HttpStatusCode.NotFound, "unknown-place"), (unknown.StatusCode, await ProblemCodeAsync(unknown)));
        Assert.Equal(HttpStatusCode.BadRequest, malformed.StatusCode);
        Assert.Equal(services!.ToJsonString(), viewer!.ToJsonString());
        Assert.Equal(HttpStatusCode.Forbidden, viewerOffers.StatusCode);
    }

    [Fact]
    public async Task Statistics_count_each_service_apart_and_every_service_together()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await TwoServicePlaceAsync(host, day); // default: 6 slots of 2 seats; PCR: 3 of 2
        var codes = new List<string>();
        foreach (var (time, service) in new[] { ("08:00", "default"), ("09:00", "pcr"), ("09:15", "pcr") })
        {
            var booked = await host.Client().SendAsync(Reserve(place, day, time, People.Next(), service: service), ct);
            Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
            codes.Add((await JsonAsync(booked))["code"]!.GetValue<string>());
        }
        // The door's records name no service (their booking does): one check-in of each service.
        foreach (var code in codes.Take(2))
        {
            await _rows!.ExecuteAsync("INSERT INTO attendance (code, place_id, day, state, at, by) VALUES (@code, @place, @day, 2, 0, 'door')",
                ("@code", code), ("@place", place), ("@day", day));
        }
        var range = $"/api/admin/stats?from={Day(day)}&to={Day(day)}&placeId={place}";

        var every = await host.AdminClient().GetFromJsonAsync<JsonObject>(range, ct);
        var pcr = await host.AdminClient().GetFromJsonAsync<JsonObject>(range + "&service=pcr", ct);
        var unknown = await host.AdminClient().GetAsync(range + "&service=booster", ct);
        var malformed = await host.AdminClient().GetAsync(range + "&service=PCR!", ct);

        static (int, long, long, long, long) Totals(JsonObject stats)
        {
            var d = stats["days"]!.AsArray().Single()!;
            return (d["slots"]!.GetValue<int>(), d["seats"]!.GetValue<long>(), d["freeSeats"]!.GetValue<long>(),
                d["reservations"]!.GetValue<long>(), d["checkedIn"]!.GetValue<long>());
        }
        Assert.Equal((9, 18L, 15L, 3L, 2L), Totals(every!));
        Assert.Null(every!["service"]);
        Assert.Equal((3, 6L, 4L, 2L, 1L), Totals(pcr!));
        Assert.Equal("pcr", pcr!["service"]!.GetValue<string>());
        Assert.Equal((HttpStatusCode.NotFound, "unknown-service"), (unknown.StatusCode, await ProblemCodeAsync(unknown)));
        Assert.Equal(HttpStatusCode.BadRequest, malformed.StatusCode);
        Assert.True((await JsonAsync(malformed))["errors"]!.AsObject().ContainsKey("service"));
    }

    [Fact]
    public async Task Slots_of_a_service_are_generated_from_its_stored_template_and_seats()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, day: day);
        await AddPcrAsync(host, place, seats: 3);

        var generated = await host.AdminClient().PostAsJsonAsync("/api/admin/slots/generate",
            new { placeIds = new[] { place }, from = Day(day), to = Day(day), service = "pcr" }, ct);

        Assert.Equal(HttpStatusCode.OK, generated.StatusCode);
        Assert.Equal(3, (await JsonAsync(generated))["slotsCreated"]!.GetValue<int>());
        var rows = await _rows!.QueryAsync(
            "SELECT start_minute, minutes, capacity FROM slots WHERE place_id = @place AND service_id <> 1 ORDER BY start_minute",
            r => (Convert.ToInt32(r.GetValue(0), CultureInfo.InvariantCulture), Convert.ToInt32(r.GetValue(1), CultureInfo.InvariantCulture),
                Convert.ToInt32(r.GetValue(2), CultureInfo.InvariantCulture)),
            ("@place", place));
        Assert.Equal([(540, 15, 3), (555, 15, 3), (570, 15, 3)], rows);
        Assert.Equal(12, await _rows.CountAsync("SELECT COUNT(*) FROM slots WHERE place_id = @place AND service_id = 1", ("@place", place)));
        var again = await host.AdminClient().PostAsJsonAsync("/api/admin/slots/generate",
            new { placeIds = new[] { place }, from = Day(day), to = Day(day), service = "pcr" }, ct);
        Assert.Equal(3, (await JsonAsync(again))["slotsExisting"]!.GetValue<int>());
        var unknown = await host.AdminClient().PostAsJsonAsync("/api/admin/slots/generate",
            new { placeIds = new[] { place }, from = Day(day), to = Day(day), service = "booster" }, ct);
        Assert.Equal("unknown-service", await ProblemCodeAsync(unknown));
    }

    [Fact]
    public async Task A_service_made_inactive_is_booked_nowhere_and_the_place_answers_unnamed_bookings_again()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await TwoServicePlaceAsync(host, day);

        var retired = await host.AdminClient().PutAsJsonAsync("/api/admin/services/pcr",
            new { nameSk = "PCR test", nameEn = "PCR test", active = false }, ct);
        var pcr = await host.Client().SendAsync(Reserve(place, day, "09:00", People.Next(), service: "pcr"), ct);
        var unnamed = await host.Client().SendAsync(Reserve(place, day, "08:00", People.Next()), ct);

        Assert.Equal(HttpStatusCode.OK, retired.StatusCode);
        Assert.False((await JsonAsync(retired))["active"]!.GetValue<bool>());
        Assert.Equal("unknown-service", await ProblemCodeAsync(pcr));
        Assert.Equal(HttpStatusCode.Created, unnamed.StatusCode);
        Assert.Equal("default", (await JsonAsync(unnamed))["service"]!.GetValue<string>());
        var page = await host.Client().GetFromJsonAsync<JsonObject>($"/api/places/{place}", ct);
        Assert.Equal(["default"], page!["services"]!.AsArray().Select(s => s!["code"]!.GetValue<string>()));
    }

    [Fact]
    public async Task Admin_service_writes_are_validated_naming_the_field_and_audited()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var admin = host.AdminClient();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);

        var badCode = await admin.PostAsJsonAsync("/api/admin/services", new { code = "PCR test", nameSk = "", nameEn = "PCR" }, ct);
        var badDose = await admin.PostAsJsonAsync("/api/admin/services",
            new { code = "vaccine", nameSk = "Vakcína", nameEn = "Vaccine", secondDose = new { minDays = 42, maxDays = 21 } }, ct);
        var zeroDose = await admin.PostAsJsonAsync("/api/admin/services",
            new { code = "vaccine", nameSk = "Vakcína", nameEn = "Vaccine", secondDose = new { minDays = 0, maxDays = 21 } }, ct);
        var created = await admin.PostAsJsonAsync("/api/admin/services",
            new { code = "vaccine", nameSk = "Vakcína", nameEn = "Vaccine", secondDose = new { minDays = 21, maxDays = 42 } }, ct);
        var taken = await admin.PostAsJsonAsync("/api/admin/services", new { code = "vaccine", nameSk = "Iná", nameEn = "Other" }, ct);
        var missing = await admin.PutAsJsonAsync("/api/admin/services/booster", new { nameSk = "Posilňovacia", nameEn = "Booster" }, ct);
        var noPlace = await admin.PutAsJsonAsync("/api/admin/places/999999/services/vaccine", new { seats = 2 }, ct);
        var noService = await admin.PutAsJsonAsync($"/api/admin/places/{place}/services/booster", new { seats = 2 }, ct);
        var badOffer = await admin.PutAsJsonAsync($"/api/admin/places/{place}/services/vaccine",
            new { seats = 0, template = new { firstStart = "9am", lastStart = "10:00", intervalMinutes = 15, lengthMinutes = 15 } }, ct);
        var offered = await admin.PutAsJsonAsync($"/api/admin/places/{place}/services/vaccine",
            new { seats = 2, template = new { firstStart = "09:00", lastStart = "10:00", intervalMinutes = 15, lengthMinutes = 15 } }, ct);

        await AssertInvalidAsync(badCode, "code");
        await AssertInvalidAsync(badCode, "nameSk");
        await AssertInvalidAsync(badDose, "secondDose.maxDays");
        await AssertInvalidAsync(zeroDose, "secondDose.minDays");
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        Assert.Equal("/api/admin/services/vaccine", created.Headers.Location!.OriginalString);
        Assert.Equal(21, (await JsonAsync(created))["secondDose"]!["minDays"]!.GetValue<int>());
        await AssertInvalidAsync(taken, "code");
        Assert.Equal("unknown-service", await ProblemCodeAsync(missing));
        Assert.Equal("unknown-place", await ProblemCodeAsync(noPlace));
        Assert.Equal("unknown-service", await ProblemCodeAsync(noService));
        await AssertInvalidAsync(badOffer, "seats");
        await AssertInvalidAsync(badOffer, "template.firstStart");
        Assert.Equal(HttpStatusCode.OK, offered.StatusCode);
        Assert.Equal("09:00", (await JsonAsync(offered))["template"]!["firstStart"]!.GetValue<string>());
        var listed = await host.Client().GetFromJsonAsync<JsonArray>("/api/services", ct);
        Assert.Contains(listed!, s => s!["code"]!.GetValue<string>() == "vaccine" && s["secondDose"]!["maxDays"]!.GetValue<int>() == 42);
        var audit = await _rows!.QueryAsync("SELECT action, target FROM staff_audit WHERE action LIKE 'service-%' ORDER BY id",
            r => (r.GetString(0), r.GetString(1)));
        Assert.Equal([("service-created", "vaccine"), ("service-offered", "vaccine")], audit);
    }

    [Fact]
    public async Task A_waiting_list_offer_of_a_service_is_claimed_as_a_booking_of_that_service_and_the_answer_names_it()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await TwoServicePlaceAsync(host, day, pcrSeats: 1);
        var booked = new List<(string Code, Person Person)>();
        foreach (var time in new[] { "09:00", "09:15", "09:30" })
        {
            var person = People.Next();
            var response = await host.Client().SendAsync(Reserve(place, day, time, person, service: "pcr"), ct);
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            booked.Add(((await JsonAsync(response))["code"]!.GetValue<string>(), person));
        }
        var waiter = People.Next();
        var joined = await host.Client().SendAsync(new HttpRequestMessage(HttpMethod.Post, "/api/waiting-list")
        {
            Content = JsonContent.Create(new { placeId = place, from = Day(day), to = Day(day), name = waiter.Name, phone = waiter.Phone, nationalId = waiter.NationalId, service = "pcr" }),
        }, ct);
        Assert.Equal(HttpStatusCode.Created, joined.StatusCode);
        var token = (await JsonAsync(joined))["token"]!.GetValue<string>();

        Assert.Equal(HttpStatusCode.NoContent,
            (await host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{booked[0].Code}", booked[0].Person.Phone), ct)).StatusCode);
        await host.Services.GetRequiredService<IWaitingListStore>().StepAsync(
            DateTimeOffset.FromUnixTimeSeconds(DateTimeOffset.UtcNow.ToUnixTimeSeconds()),
            host.Services.GetRequiredService<IOptions<WaitingListOptions>>().Value, ct);
        var claimed = await host.Client().SendAsync(
            new HttpRequestMessage(HttpMethod.Post, "/api/waiting-list/entry/claim") { Headers = { { "Slots-Waiting-List-Token", token } } }, ct);

        Assert.Equal(HttpStatusCode.Created, claimed.StatusCode);
        var booking = await JsonAsync(claimed);
        Assert.Equal(("09:00", "pcr"), (booking["time"]!.GetValue<string>(), booking["service"]!.GetValue<string>()));
        Assert.Equal(1, await _rows!.CountAsync(
            "SELECT COUNT(*) FROM hot_reservations WHERE code = @code AND service_id = 2", ("@code", booking["code"]!.GetValue<string>())));
    }

    /// <summary>
    /// A place offering the default service at 08:00–08:50 every 10 minutes and PCR, on one day: at the
    /// same minutes and 09:00 when <paramref name="sameMinutes"/>, else at 09:00–09:30 every 15 minutes.
    /// </summary>
    private static async Task<int> TwoServicePlaceAsync(SlotsHost host, DateOnly day, int defaultSeats = 2, int pcrSeats = 2, bool sameMinutes = false)
    {
        var admin = host.AdminClient();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: defaultSeats, day: day);
        await AddPcrAsync(host, place, pcrSeats,
            sameMinutes ? new { firstStart = "08:00", lastStart = "09:00", intervalMinutes = 10, lengthMinutes = 10 } : null);
        var generated = await admin.PostAsJsonAsync("/api/admin/slots/generate",
            new { placeIds = new[] { place }, from = Day(day), to = Day(day), service = "pcr" });
        generated.EnsureSuccessStatusCode();
        Assert.Equal(sameMinutes ? 7 : 3, (await JsonAsync(generated))["slotsCreated"]!.GetValue<int>());
        return place;
    }

    /// <summary>Adds the PCR service (once per database) and offers it at the place with a template (09:00–09:30 every 15 minutes by default).</summary>
    private static async Task AddPcrAsync(SlotsHost host, int place, int seats, object? template = null)
    {
        var admin = host.AdminClient();
        var created = await admin.PostAsJsonAsync("/api/admin/services", new { code = "pcr", nameSk = "PCR test", nameEn = "PCR test" });
        Assert.True(created.StatusCode is HttpStatusCode.Created or HttpStatusCode.BadRequest, $"creating pcr answered {created.StatusCode}");
        var offered = await admin.PutAsJsonAsync($"/api/admin/places/{place}/services/pcr", new
        {
            seats,
            template = template ?? new { firstStart = "09:00", lastStart = "09:30", intervalMinutes = 15, lengthMinutes = 15 },
        });
        offered.EnsureSuccessStatusCode();
    }
}
