using System.Net;
using System.Net.Http.Json;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Storage;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Reservations;

/// <summary>
/// What every backend must do, over HTTP against the real host. Each backend runs this class
/// unchanged through a subclass; a backend that is not available here shows as skipped.
/// </summary>
public abstract class ReservationContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private SlotsHost? _host;
    private Rows? _rows;

    protected SlotsHost Host => _host ?? throw new InvalidOperationException("Call StartAsync first.");

    protected async Task<(HttpClient Client, HttpClient Admin)> StartAsync()
    {
        var settings = await CreateDatabaseAsync("db");
        _host = NewHost(settings);
        _rows = new Rows(settings);
        return (_host.Client(), _host.AdminClient());
    }

    protected Task<List<HeldSeat>> HotReservationsAsync(int placeId) =>
        (_rows ?? throw new InvalidOperationException("Call StartAsync first.")).HotAsync(placeId);

    [Fact]
    public async Task Reserve_returns_201_with_a_code_and_the_seat_leaves_availability()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2);
        var day = Today.AddDays(2);

        var response = await client.SendAsync(Reserve(place, day, "08:10", People.Next()));

        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        var body = await JsonAsync(response);
        Assert.Matches("^[2-9A-Z]{5}-[2-9A-Z]{5}$", body["code"]!.GetValue<string>());
        Assert.Equal("08:10", body["time"]!.GetValue<string>());
        Assert.Equal(1, await FreeSeatsAsync(client, place, day, "08:10"));
        Assert.Equal(2, await FreeSeatsAsync(client, place, day, "08:20"));
    }

    [Fact]
    public async Task Availability_is_tagged_answers_304_while_unchanged_and_a_new_tag_once_a_seat_is_taken()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2);
        var day = Today.AddDays(2);
        var url = $"/api/places/{place}/availability?from={Day(day)}&to={Day(day)}";

        var first = await client.GetAsync(url);
        var unchanged = await client.SendAsync(Conditional(url, first.Headers.ETag!));
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, day, "08:10", People.Next()))).StatusCode);
        var changed = await client.SendAsync(Conditional(url, first.Headers.ETag!));

        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        Assert.False(first.Headers.ETag!.IsWeak);
        Assert.True(first.Headers.CacheControl!.Public);
        Assert.Equal(TimeSpan.FromSeconds(1), first.Headers.CacheControl.MaxAge);
        Assert.Equal(HttpStatusCode.NotModified, unchanged.StatusCode);
        Assert.Empty(await unchanged.Content.ReadAsByteArrayAsync());
        Assert.Equal(first.Headers.ETag, unchanged.Headers.ETag);
        Assert.Equal(HttpStatusCode.OK, changed.StatusCode);
        Assert.NotEqual(first.Headers.ETag, changed.Headers.ETag);
        var slot = (await JsonAsync(changed))["days"]!.AsArray().Single()!["slots"]!.AsArray().Single(s => s!["time"]!.GetValue<string>() == "08:10");
        Assert.Equal(1, slot!["free"]!.GetValue<int>());
    }

    private static HttpRequestMessage Conditional(string url, System.Net.Http.Headers.EntityTagHeaderValue etag)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, url);
        request.Headers.IfNoneMatch.Add(etag);
        return request;
    }

    [Fact]
    public async Task Reserve_returns_409_slot_full_with_the_nearest_free_slots()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, day, "08:20", People.Next()))).StatusCode);

        var full = await client.SendAsync(Reserve(place, day, "08:20", People.Next()));

        Assert.Equal(HttpStatusCode.Conflict, full.StatusCode);
        var problem = await JsonAsync(full);
        Assert.Equal("slot-full", problem["code"]!.GetValue<string>());
        var times = problem["alternatives"]!.AsArray().Select(a => a!["time"]!.GetValue<string>()).ToList();
        Assert.Contains("08:10", times);
        Assert.Contains("08:30", times);
        Assert.DoesNotContain("08:20", times);
    }

    [Fact]
    public async Task A_slot_full_is_not_remembered_under_its_key_so_the_same_key_books_once_a_seat_came_back()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);
        var holder = People.Next();
        var code = (await JsonAsync(await client.SendAsync(Reserve(place, day, "08:20", holder))))["code"]!.GetValue<string>();
        var waiting = People.Next();
        var full = await client.SendAsync(Reserve(place, day, "08:20", waiting, key: "slot-full-key-0001"));
        Assert.Equal(HttpStatusCode.Conflict, full.StatusCode);
        Assert.Equal("slot-full", (await JsonAsync(full))["code"]!.GetValue<string>());

        Assert.Equal(HttpStatusCode.NoContent, (await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", holder.Phone))).StatusCode);
        var retried = await client.SendAsync(Reserve(place, day, "08:20", waiting, key: "slot-full-key-0001"));
        var again = await client.SendAsync(Reserve(place, day, "08:20", waiting, key: "slot-full-key-0001"));

        Assert.Equal(HttpStatusCode.Created, retried.StatusCode);
        Assert.False(retried.Headers.Contains("Idempotent-Replayed"));
        Assert.Equal(HttpStatusCode.Created, again.StatusCode);
        Assert.Equal(await retried.Content.ReadAsStringAsync(), await again.Content.ReadAsStringAsync());
        Assert.Single(await HotReservationsAsync(place));
    }

    [Fact]
    public async Task A_person_holds_one_reservation_and_only_the_same_phone_sees_its_code()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 3);
        var day = Today.AddDays(2);
        var person = People.Next();
        var first = await JsonAsync(await client.SendAsync(Reserve(place, day, "08:00", person)));

        var again = await client.SendAsync(Reserve(place, day, "08:30", person));
        var impostor = await client.SendAsync(Reserve(place, day, "08:30", person with { Phone = "+421911000111" }));

        Assert.Equal(HttpStatusCode.Conflict, again.StatusCode);
        var problem = await JsonAsync(again);
        Assert.Equal("already-booked", problem["code"]!.GetValue<string>());
        Assert.Equal(first["code"]!.GetValue<string>(), problem["existingCode"]!.GetValue<string>());
        Assert.Equal(HttpStatusCode.Conflict, impostor.StatusCode);
        Assert.False((await JsonAsync(impostor)).ContainsKey("existingCode"));
    }

    [Fact]
    public async Task One_phone_may_book_for_several_persons()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 3);
        var day = Today.AddDays(2);
        var parent = People.Next();
        var child = People.Next() with { Phone = parent.Phone };

        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, day, "08:00", parent))).StatusCode);
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, day, "08:00", child))).StatusCode);
    }

    [Fact]
    public async Task Reserve_returns_404_for_an_unknown_slot_or_place()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);

        var noSuchTime = await client.SendAsync(Reserve(place, day, "13:37", People.Next()));
        var noSuchPlace = await client.SendAsync(Reserve(999_999, day, "08:00", People.Next()));

        Assert.Equal(HttpStatusCode.NotFound, noSuchTime.StatusCode);
        Assert.Equal("unknown-slot", await ProblemCodeAsync(noSuchTime));
        Assert.Equal(HttpStatusCode.NotFound, noSuchPlace.StatusCode);
        Assert.Equal("unknown-place", await ProblemCodeAsync(noSuchPlace));
    }

    [Fact]
    public async Task Reserve_rejects_a_past_day_naming_the_day_and_a_day_beyond_the_catalogue_as_unknown_slot()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);

        var past = await client.SendAsync(Reserve(place, Today.AddDays(-1), "08:00", People.Next()));
        var beyond = await client.SendAsync(Reserve(place, Today.AddDays(40), "08:00", People.Next()));

        Assert.Equal(HttpStatusCode.BadRequest, past.StatusCode);
        Assert.True((await JsonAsync(past))["errors"]!.AsObject().ContainsKey("day"));
        Assert.Equal(HttpStatusCode.NotFound, beyond.StatusCode);
        Assert.Equal("unknown-slot", await ProblemCodeAsync(beyond));
    }

    [Fact]
    public async Task A_repeat_with_the_same_key_returns_the_first_answer_and_books_once()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 3);
        var day = Today.AddDays(2);
        var person = People.Next();

        var first = await client.SendAsync(Reserve(place, day, "08:00", person, key: "repeat-key-0001"));
        var second = await client.SendAsync(Reserve(place, day, "08:00", person, key: "repeat-key-0001"));

        Assert.Equal(HttpStatusCode.Created, second.StatusCode);
        Assert.Equal(await first.Content.ReadAsStringAsync(), await second.Content.ReadAsStringAsync());
        Assert.Equal("true", second.Headers.GetValues("Idempotent-Replayed").Single());
        Assert.Single(await HotReservationsAsync(place));
    }

    [Fact]
    public async Task A_key_reused_for_a_different_request_is_422()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 3);
        var day = Today.AddDays(2);
        await client.SendAsync(Reserve(place, day, "08:00", People.Next(), key: "shared-key-0001"));

        var other = await client.SendAsync(Reserve(place, day, "08:00", People.Next(), key: "shared-key-0001"));

        Assert.Equal(HttpStatusCode.UnprocessableEntity, other.StatusCode);
        Assert.Equal("idempotency-key-reused", await ProblemCodeAsync(other));
        Assert.Single(await HotReservationsAsync(place));
    }

    [Fact]
    public async Task Two_hundred_racers_for_three_seats_get_exactly_three_seats_and_none_is_shared()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 3);
        var day = Today.AddDays(2);

        var responses = await Task.WhenAll(Enumerable.Range(0, 200)
            .Select(_ => client.SendAsync(Reserve(place, day, "08:40", People.Next()))));

        Assert.Equal(3, responses.Count(r => r.StatusCode == HttpStatusCode.Created));
        Assert.Equal(197, responses.Count(r => r.StatusCode == HttpStatusCode.Conflict));
        var held = (await HotReservationsAsync(place)).Where(r => r.StartMinute == 8 * 60 + 40).ToList();
        Assert.Equal(3, held.Count);
        Assert.Equal(3, held.Select(r => r.SeatNo).Distinct().Count());
        Assert.Equal(0, await FreeSeatsAsync(client, place, day, "08:40"));
    }

    [Fact]
    public async Task Fifty_concurrent_repeats_of_one_key_book_once_and_get_identical_answers()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 5);
        var day = Today.AddDays(2);
        var person = People.Next();

        var responses = await Task.WhenAll(Enumerable.Range(0, 50)
            .Select(_ => client.SendAsync(Reserve(place, day, "08:00", person, key: "stampede-key-0001"))));

        Assert.All(responses, r => Assert.Equal(HttpStatusCode.Created, r.StatusCode));
        var bodies = await Task.WhenAll(responses.Select(r => r.Content.ReadAsStringAsync()));
        Assert.Single(bodies.Distinct());
        Assert.Single(await HotReservationsAsync(place));
    }

    [Fact]
    public async Task One_person_racing_for_two_slots_gets_exactly_one()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 5);
        var day = Today.AddDays(2);
        for (var round = 0; round < 5; round++)
        {
            var racer = People.Next();
            var responses = await Task.WhenAll(
                client.SendAsync(Reserve(place, day, "08:10", racer)),
                client.SendAsync(Reserve(place, day, "08:50", racer)));
            Assert.Equal(1, responses.Count(r => r.StatusCode == HttpStatusCode.Created));
            Assert.Equal("already-booked", await ProblemCodeAsync(responses.Single(r => r.StatusCode != HttpStatusCode.Created)));
        }
        Assert.Equal(5, (await HotReservationsAsync(place)).Select(r => r.PersonHash).Distinct().Count());
    }

    [Fact]
    public async Task Cancel_frees_the_seat_and_only_the_owner_learns_it_was_cancelled()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);
        var person = People.Next();
        var code = (await JsonAsync(await client.SendAsync(Reserve(place, day, "08:00", person))))["code"]!.GetValue<string>();
        Assert.Equal(0, await FreeSeatsAsync(client, place, day, "08:00"));

        var cancelled = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone));

        Assert.Equal(HttpStatusCode.NoContent, cancelled.StatusCode);
        Assert.Equal(1, await FreeSeatsAsync(client, place, day, "08:00"));
        var lookup = await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone));
        Assert.Equal(HttpStatusCode.Gone, lookup.StatusCode);
        var problem = await JsonAsync(lookup);
        Assert.Equal("reservation-cancelled", problem["code"]!.GetValue<string>());
        Assert.Equal("cancelled", problem["state"]!.GetValue<string>());
        var byId = new HttpRequestMessage(HttpMethod.Get, $"/api/reservations/{code}");
        byId.Headers.Add("Slots-National-Id", person.NationalId);
        Assert.Equal(HttpStatusCode.Gone, (await client.SendAsync(byId)).StatusCode);
        // a stranger learns nothing: the same answer as for a code that never existed
        var stranger = await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", "+421911999888"));
        Assert.Equal(HttpStatusCode.NotFound, stranger.StatusCode);
        Assert.Equal("reservation-not-found", (await JsonAsync(stranger))["code"]!.GetValue<string>());
        // and the person may book again
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, day, "08:00", person))).StatusCode);
    }

    // Found by the chaos soak (seed 17): an instance killed after its cancel committed, the client's
    // HTTP stack sent the DELETE again, and the second try answered 404 for a cancel that had happened.
    [Fact]
    public async Task A_cancel_sent_again_after_it_took_effect_answers_204_and_touches_nothing_else()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);
        var person = People.Next();
        var next = People.Next();
        var code = (await JsonAsync(await client.SendAsync(Reserve(place, day, "08:00", person))))["code"]!.GetValue<string>();
        Assert.Equal(HttpStatusCode.NoContent, (await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone))).StatusCode);
        var nextCode = (await JsonAsync(await client.SendAsync(Reserve(place, day, "08:00", next))))["code"]!.GetValue<string>();

        var again = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone));
        var byId = await client.SendAsync(new HttpRequestMessage(HttpMethod.Delete, $"/api/reservations/{code}") { Headers = { { "Slots-National-Id", person.NationalId } } });
        var stranger = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", "+421911999888"));

        Assert.Equal(HttpStatusCode.NoContent, again.StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, byId.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, stranger.StatusCode);
        Assert.Equal(0, await FreeSeatsAsync(client, place, day, "08:00"));
        Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{nextCode}", next.Phone))).StatusCode);
        Assert.Equal([nextCode], (await HotReservationsAsync(place)).Select(r => r.Code));
    }

    [Fact]
    public async Task A_code_alone_reveals_and_cancels_nothing()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);
        var person = People.Next();
        var code = (await JsonAsync(await client.SendAsync(Reserve(place, day, "08:00", person))))["code"]!.GetValue<string>();

        var noProof = await client.GetAsync($"/api/reservations/{code}");
        var wrongPhone = await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", "+421911999888"));
        var wrongCancel = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", "+421911999888"));
        var byId = new HttpRequestMessage(HttpMethod.Get, $"/api/reservations/{code.ToLowerInvariant()}") { Headers = { { "Slots-National-Id", person.NationalId } } };
        var owner = await client.SendAsync(byId);

        Assert.Equal(HttpStatusCode.BadRequest, noProof.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, wrongPhone.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, wrongCancel.StatusCode);
        Assert.Equal(HttpStatusCode.OK, owner.StatusCode);
        Assert.Equal(person.Name, (await JsonAsync(owner))["name"]!.GetValue<string>());
        Assert.Equal(0, await FreeSeatsAsync(client, place, day, "08:00"));
    }

    [Fact]
    public async Task Reschedule_moves_the_seat_atomically()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);
        var person = People.Next();
        var code = (await JsonAsync(await client.SendAsync(Reserve(place, day, "08:00", person))))["code"]!.GetValue<string>();

        var moved = await client.SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{code}/reschedule", person.Phone,
            new { placeId = place, day = Day(day), time = "08:30" }));

        Assert.Equal(HttpStatusCode.OK, moved.StatusCode);
        Assert.Equal("08:30", (await JsonAsync(moved))["time"]!.GetValue<string>());
        Assert.Equal(1, await FreeSeatsAsync(client, place, day, "08:00"));
        Assert.Equal(0, await FreeSeatsAsync(client, place, day, "08:30"));
    }

    [Fact]
    public async Task Reschedule_to_a_full_slot_changes_nothing()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);
        var person = People.Next();
        var code = (await JsonAsync(await client.SendAsync(Reserve(place, day, "08:00", person))))["code"]!.GetValue<string>();
        await client.SendAsync(Reserve(place, day, "08:30", People.Next()));

        var refused = await client.SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{code}/reschedule", person.Phone,
            new { placeId = place, day = Day(day), time = "08:30" }));

        Assert.Equal(HttpStatusCode.Conflict, refused.StatusCode);
        Assert.Equal("slot-full", await ProblemCodeAsync(refused));
        var still = await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone));
        Assert.Equal("08:00", (await JsonAsync(still))["time"]!.GetValue<string>());
        Assert.Equal(0, await FreeSeatsAsync(client, place, day, "08:00"));
        Assert.Equal(2, (await HotReservationsAsync(place)).Count);
    }

    [Fact]
    public async Task Racing_reschedules_into_the_last_seat_give_it_to_one()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var day = Today.AddDays(2);
        var a = People.Next();
        var b = People.Next();
        var codeA = (await JsonAsync(await client.SendAsync(Reserve(place, day, "08:00", a))))["code"]!.GetValue<string>();
        var codeB = (await JsonAsync(await client.SendAsync(Reserve(place, day, "08:10", b))))["code"]!.GetValue<string>();

        var target = new { placeId = place, day = Day(day), time = "08:50" };
        var responses = await Task.WhenAll(
            client.SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{codeA}/reschedule", a.Phone, target)),
            client.SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{codeB}/reschedule", b.Phone, target)));

        Assert.Equal(1, responses.Count(r => r.StatusCode == HttpStatusCode.OK));
        Assert.Equal(1, responses.Count(r => r.StatusCode == HttpStatusCode.Conflict));
        var held = await HotReservationsAsync(place);
        Assert.Equal(2, held.Count);
        Assert.Equal(2, held.Select(r => (r.StartMinute, r.SeatNo)).Distinct().Count());
    }
}
