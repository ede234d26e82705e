using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;
using Slots.Storage;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Reservations;

/// <summary>
/// Days beyond the hot window (here 40 days out, the window being 30) take the cold path: EF Core
/// on the disk tables, with the same answers and guarantees as the hot path. Every backend runs
/// this class unchanged through a subclass.
/// </summary>
public abstract class ColdPathContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private static readonly DateOnly ColdDay = Today.AddDays(40);
    private SlotsHost? _host;
    private Rows? _rows;

    private async Task<(HttpClient Client, HttpClient Admin)> StartAsync()
    {
        var settings = await CreateDatabaseAsync("cold");
        _host = NewHost(settings);
        _rows = new Rows(settings);
        return (_host.Client(), _host.AdminClient());
    }

    private Task<List<HeldSeat>> DiskAsync(int place) => _rows!.DiskAsync(place);

    private static async Task<string> CodeOfAsync(HttpResponseMessage response)
    {
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        return (await JsonAsync(response))["code"]!.GetValue<string>();
    }

    [Fact]
    public async Task A_day_beyond_the_window_is_booked_on_disk_and_leaves_availability()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2, day: ColdDay);
        var person = People.Next();

        var code = await CodeOfAsync(await client.SendAsync(Reserve(place, ColdDay, "08:10", person)));

        Assert.Equal(1, await FreeSeatsAsync(client, place, ColdDay, "08:10"));
        Assert.Equal(2, await FreeSeatsAsync(client, place, ColdDay, "08:20"));
        var row = Assert.Single(await DiskAsync(place));
        Assert.Equal((code, 1, (long?)null), (row.Code, row.SeatNo, row.CancelledAt));
        Assert.Empty(await _rows!.HotAsync(place));
        Assert.Equal(1, await _rows.CountAsync("SELECT COUNT(*) FROM outbox WHERE code = @code AND kind = @kind",
            ("@code", code), ("@kind", (int)ChangeKind.Reserved)));
        var found = await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone));
        Assert.Equal(HttpStatusCode.OK, found.StatusCode);
        Assert.Equal(Day(ColdDay), (await JsonAsync(found))["day"]!.GetValue<string>());
    }

    [Fact]
    public async Task Stats_count_a_cold_reservation_as_taken()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2, day: ColdDay);
        await CodeOfAsync(await client.SendAsync(Reserve(place, ColdDay, "08:10", People.Next())));

        var stats = await admin.GetFromJsonAsync<JsonObject>($"/api/admin/stats?from={Day(ColdDay)}&to={Day(ColdDay)}");

        var day = Assert.Single(stats!["days"]!.AsArray())!;
        Assert.Equal(1, day["reservations"]!.GetValue<long>());
        Assert.Equal(day["seats"]!.GetValue<long>() - 1, day["freeSeats"]!.GetValue<long>());
    }

    [Fact]
    public async Task Racers_for_the_last_cold_seats_get_exactly_those_seats_and_none_is_shared()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 3, day: ColdDay);

        var responses = await Task.WhenAll(Enumerable.Range(0, 60)
            .Select(_ => client.SendAsync(Reserve(place, ColdDay, "08:40", People.Next()))));

        Assert.Equal(3, responses.Count(r => r.StatusCode == HttpStatusCode.Created));
        Assert.Equal(57, responses.Count(r => r.StatusCode == HttpStatusCode.Conflict));
        Assert.All(responses.Where(r => r.StatusCode == HttpStatusCode.Conflict),
            r => Assert.Equal("slot-full", ProblemCodeAsync(r).GetAwaiter().GetResult()));
        var held = (await DiskAsync(place)).Where(r => r.CancelledAt is null).ToList();
        Assert.Equal([1, 2, 3], held.Select(r => r.SeatNo).Order());
        Assert.Equal(0, await FreeSeatsAsync(client, place, ColdDay, "08:40"));
    }

    [Fact]
    public async Task A_person_racing_for_a_hot_and_a_cold_slot_gets_exactly_one()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 5, day: ColdDay);
        var hotPlace = await CreatePlaceWithSlotsAsync(admin, capacity: 5);
        for (var round = 0; round < 5; round++)
        {
            var racer = People.Next();
            var responses = await Task.WhenAll(
                client.SendAsync(Reserve(hotPlace, Today.AddDays(2), "08:10", racer)),
                client.SendAsync(Reserve(place, ColdDay, "08:10", racer)));
            Assert.Equal(1, responses.Count(r => r.StatusCode == HttpStatusCode.Created));
            Assert.Equal("already-booked", await ProblemCodeAsync(responses.Single(r => r.StatusCode != HttpStatusCode.Created)));
        }
    }

    [Fact]
    public async Task A_key_of_a_hot_booking_reused_for_a_disk_day_is_422_and_books_nothing()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 3, day: ColdDay);
        var hotPlace = await CreatePlaceWithSlotsAsync(admin, capacity: 3);

        var hot = await client.SendAsync(Reserve(hotPlace, Today.AddDays(2), "08:00", People.Next(), key: "hot-key-then-cold"));
        var cold = await client.SendAsync(Reserve(place, ColdDay, "08:00", People.Next(), key: "hot-key-then-cold"));

        Assert.Equal(HttpStatusCode.Created, hot.StatusCode);
        Assert.Equal(HttpStatusCode.UnprocessableEntity, cold.StatusCode);
        Assert.Empty(await DiskAsync(place));
    }

    [Fact]
    public async Task A_cold_repeat_with_the_same_key_replays_and_a_reused_key_is_422()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 3, day: ColdDay);
        var person = People.Next();

        var first = await client.SendAsync(Reserve(place, ColdDay, "08:00", person, key: "cold-key-0001"));
        var again = await client.SendAsync(Reserve(place, ColdDay, "08:00", person, key: "cold-key-0001"));
        var other = await client.SendAsync(Reserve(place, ColdDay, "08:00", People.Next(), key: "cold-key-0001"));

        Assert.Equal(HttpStatusCode.Created, again.StatusCode);
        Assert.Equal(await first.Content.ReadAsStringAsync(), await again.Content.ReadAsStringAsync());
        Assert.Equal("true", again.Headers.GetValues("Idempotent-Replayed").Single());
        Assert.Equal(HttpStatusCode.UnprocessableEntity, other.StatusCode);
        Assert.Single(await DiskAsync(place));
    }

    [Fact]
    public async Task A_cold_cancel_frees_the_seat_and_lets_the_person_book_again()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1, day: ColdDay);
        var person = People.Next();
        var code = await CodeOfAsync(await client.SendAsync(Reserve(place, ColdDay, "08:00", person)));

        var wrongPhone = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", "+421911999888"));
        var cancelled = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone));

        Assert.Equal(HttpStatusCode.NotFound, wrongPhone.StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, cancelled.StatusCode);
        Assert.Equal(1, await FreeSeatsAsync(client, place, ColdDay, "08:00"));
        Assert.NotNull(Assert.Single(await DiskAsync(place)).CancelledAt);
        Assert.Equal(HttpStatusCode.Gone,
            (await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone))).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound,
            (await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", "+421911999888"))).StatusCode);
        await CodeOfAsync(await client.SendAsync(Reserve(place, ColdDay, "08:00", person)));
    }

    [Fact]
    public async Task A_cold_cancel_sent_again_after_it_took_effect_answers_204()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1, day: ColdDay);
        var person = People.Next();
        var code = await CodeOfAsync(await client.SendAsync(Reserve(place, ColdDay, "08:00", person)));
        Assert.Equal(HttpStatusCode.NoContent, (await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone))).StatusCode);

        var again = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone));
        var stranger = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", "+421911999888"));

        Assert.Equal(HttpStatusCode.NoContent, again.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, stranger.StatusCode);
        Assert.Equal(1, await FreeSeatsAsync(client, place, ColdDay, "08:00"));
    }

    [Fact]
    public async Task A_cold_reschedule_moves_the_seat_and_a_move_across_the_horizon_is_refused()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1, day: ColdDay);
        var hotPlace = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var person = People.Next();
        var code = await CodeOfAsync(await client.SendAsync(Reserve(place, ColdDay, "08:00", person)));

        var moved = await client.SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{code}/reschedule", person.Phone,
            new { placeId = place, day = Day(ColdDay), time = "08:30" }));
        var across = await client.SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{code}/reschedule", person.Phone,
            new { placeId = hotPlace, day = Day(Today.AddDays(2)), time = "08:30" }));

        Assert.Equal(HttpStatusCode.OK, moved.StatusCode);
        Assert.Equal(1, await FreeSeatsAsync(client, place, ColdDay, "08:00"));
        Assert.Equal(0, await FreeSeatsAsync(client, place, ColdDay, "08:30"));
        Assert.Equal(HttpStatusCode.Conflict, across.StatusCode);
        Assert.Equal("reschedule-across-window", await ProblemCodeAsync(across));
        Assert.Equal(8 * 60 + 30, Assert.Single(await DiskAsync(place)).StartMinute);
    }

    [Fact]
    public async Task Racing_cold_reschedules_into_the_last_seat_give_it_to_one()
    {
        var (client, admin) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1, day: ColdDay);
        var a = People.Next();
        var b = People.Next();
        var codeA = await CodeOfAsync(await client.SendAsync(Reserve(place, ColdDay, "08:00", a)));
        var codeB = await CodeOfAsync(await client.SendAsync(Reserve(place, ColdDay, "08:10", b)));

        var target = new { placeId = place, day = Day(ColdDay), time = "08:50" };
        var responses = await Task.WhenAll(
            client.SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{codeA}/reschedule", a.Phone, target)),
            client.SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{codeB}/reschedule", b.Phone, target)));

        Assert.Equal(1, responses.Count(r => r.StatusCode == HttpStatusCode.OK));
        Assert.Equal(1, responses.Count(r => r.StatusCode == HttpStatusCode.Conflict));
        var held = await DiskAsync(place);
        Assert.Equal(2, held.Select(r => (r.StartMinute, r.SeatNo)).Distinct().Count());
    }
}
