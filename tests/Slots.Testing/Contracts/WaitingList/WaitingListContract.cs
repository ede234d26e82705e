using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Options;
using Slots.Testing.Web;
using Slots.WaitingList;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.WaitingList;

/// <summary>
/// A place's waiting list over HTTP, on every backend: first in, first offered; a held seat nobody
/// else can book or see; a claim that books it once; a hold that runs out and moves on; a waiter who
/// books elsewhere leaving the line; joins refused while seats are free; leaving by token.
/// The tests move the line themselves (the store's step at instants of their own).
/// </summary>
public abstract class WaitingListContract<TBackend>(TBackend backend) : WaitingListHarness<TBackend>(backend)
    where TBackend : class, IBackend
{
    [Fact]
    public async Task A_freed_seat_is_held_for_the_first_in_line_and_nobody_else_can_book_it_until_the_claim()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var (place, booked) = await SoldOutAsync(day);
        var first = await JoinAsync(place, day, People.Next());
        var second = await JoinAsync(place, day, People.Next());
        Assert.Equal((1, 2), ((await EntryAsync(first))["position"]!.GetValue<int>(), (await EntryAsync(second))["position"]!.GetValue<int>()));

        Assert.Equal(HttpStatusCode.NoContent, (await CancelAsync(booked[1])).StatusCode);
        // Freed, the seat is the line's at once: the crowd cannot take it before the offer.
        Assert.Equal(HttpStatusCode.Conflict, (await host.Client().SendAsync(Reserve(place, day, "08:10", People.Next()))).StatusCode);
        await StepAsync();

        var offered = await EntryAsync(first);
        Assert.Equal("offered", offered["state"]!.GetValue<string>());
        Assert.Equal("08:10", offered["offer"]!["time"]!.GetValue<string>());
        Assert.Equal("waiting", (await EntryAsync(second))["state"]!.GetValue<string>());
        Assert.Equal(0, await FreeSeatsAsync(host.Client(), place, day, "08:10"));
        Assert.Equal(HttpStatusCode.Conflict, (await host.Client().SendAsync(Reserve(place, day, "08:10", People.Next()))).StatusCode);
        Assert.Equal(1, await Rows.CountAsync("SELECT COUNT(*) FROM outbox WHERE kind = 6 AND place_id = @place", ("@place", place)));

        var claimed = await host.Client().SendAsync(Entry(HttpMethod.Post, first, "/claim"));
        var again = await host.Client().SendAsync(Entry(HttpMethod.Post, first, "/claim"));

        Assert.Equal(HttpStatusCode.Created, claimed.StatusCode);
        var code = (await JsonAsync(claimed))["code"]!.GetValue<string>();
        Assert.Equal("08:10", (await JsonAsync(claimed))["time"]!.GetValue<string>());
        Assert.Equal(HttpStatusCode.Created, again.StatusCode);
        Assert.Equal(code, (await JsonAsync(again))["code"]!.GetValue<string>());
        var entry = await EntryAsync(first);
        Assert.Equal(("booked", code), (entry["state"]!.GetValue<string>(), entry["bookedCode"]!.GetValue<string>()));
        Assert.Equal(1, await Rows.CountAsync("SELECT COUNT(*) FROM hot_reservations WHERE place_id = @place AND start_minute = 490", ("@place", place)));
        Assert.Equal(1, (await EntryAsync(second))["position"]!.GetValue<int>());
    }

    [Fact]
    public async Task The_line_is_for_people_the_service_admits()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var (place, _) = await SoldOutAsync(day);
        var admin = host.AdminClient();
        (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new
        {
            rule = "age",
            steps = new[] { new { opensAt = "2020-01-01T00:00:00Z", bornOnOrBefore = "1960-12-31" } },
        })).EnsureSuccessStatusCode();

        var young = await host.Client().SendAsync(Join(place, day, day, People.Next() with { NationalId = "8506150026" }));
        Assert.Equal(HttpStatusCode.Forbidden, young.StatusCode);
        var problem = await JsonAsync(young);
        Assert.Equal(("not-eligible", "too-young"), (problem["code"]!.GetValue<string>(), problem["reason"]!.GetValue<string>()));
        Assert.Equal(0, await Rows.CountAsync("SELECT COUNT(*) FROM waitlist WHERE place_id = @place", ("@place", place)));
        await JoinAsync(place, day, People.Next() with { NationalId = "5503100020" });

        (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new { rule = "invitation" })).EnsureSuccessStatusCode();
        var uninvited = await JsonAsync(await host.Client().SendAsync(Join(place, day, day, People.Next() with { NationalId = "5503100031" })));
        Assert.Equal("invitation-required", uninvited["reason"]!.GetValue<string>());
    }

    [Fact]
    public async Task A_seat_of_another_service_is_never_offered_to_someone_waiting_for_this_one()
    {
        await StartAsync();
        var day = Today.AddDays(2);
        var (place, booked) = await SoldOutAsync(day);
        var waiter = await JoinAsync(place, day, People.Next()); // the place's only service: the default one (antigen here)
        // A second service (PCR) at the place with a free seat at 09:00 the same day, written directly: the
        // API names no service at a booking yet, and the seat only has to be there for the offer step to see it.
        await Rows.ExecuteAsync("INSERT INTO services (id, code, name_sk, name_en) VALUES (2, 'pcr', 'PCR test', 'PCR test')");
        await Rows.ExecuteAsync("INSERT INTO place_services (place_id, service_id, seats) VALUES (@place, 2, 1)", ("@place", place));
        Assert.Equal(1, await Rows.ExecuteAsync("""
            INSERT INTO hot_seats (place_id, day, start_minute, service_id, seat_no, minutes, starts_at, code, hold)
            SELECT place_id, day, 540, 2, 1, minutes, starts_at + 600, NULL, 0 FROM hot_seats
            WHERE place_id = @place AND day = @day AND start_minute = 530 AND seat_no = 1
            """, ("@place", place), ("@day", day)));
        const string FreePcrSeat = "SELECT COUNT(*) FROM hot_seats WHERE place_id = @place AND service_id = 2 AND code IS NULL AND hold = 0 AND offer_id IS NULL";

        var step = await StepAsync();

        Assert.Equal(0, step.Offered);
        Assert.Equal("waiting", (await EntryAsync(waiter))["state"]!.GetValue<string>());
        Assert.Equal(1, await Rows.CountAsync(FreePcrSeat, ("@place", place)));
        Assert.Equal(0, await Rows.CountAsync("SELECT COUNT(*) FROM waitlist_offers WHERE place_id = @place", ("@place", place)));

        // A seat of the waiter's own service is theirs at the next step; the PCR seat stays free.
        Assert.Equal(HttpStatusCode.NoContent, (await CancelAsync(booked[1])).StatusCode);
        Assert.Equal(1, (await StepAsync()).Offered);
        var offered = await EntryAsync(waiter);
        Assert.Equal(("offered", "08:10"), (offered["state"]!.GetValue<string>(), offered["offer"]!["time"]!.GetValue<string>()));
        Assert.Equal(1, await Rows.CountAsync(FreePcrSeat, ("@place", place)));
    }

    [Fact]
    public async Task A_kept_or_held_seat_says_so_in_its_hold_columns_and_its_code_is_only_ever_a_bookings()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var (place, booked) = await SoldOutAsync(day);
        var first = await JoinAsync(place, day, People.Next());
        await JoinAsync(place, day, People.Next());
        const string Seat = "SELECT COUNT(*) FROM hot_seats WHERE place_id = @place AND start_minute = 490";

        Assert.Equal(HttpStatusCode.NoContent, (await CancelAsync(booked[1])).StatusCode);
        // Kept for the line: no code, held back, for no offer yet.
        Assert.Equal(1, await Rows.CountAsync(Seat + " AND code IS NULL AND hold = 1 AND offer_id IS NULL", ("@place", place)));
        await AssertCodesAreBookingsAsync(place);

        await StepAsync();
        // Held for the first in line's open offer, still without a code.
        Assert.Equal(1, await Rows.CountAsync(Seat + """
             AND code IS NULL AND hold = 1
             AND offer_id IN (SELECT o.id FROM waitlist_offers o WHERE o.place_id = @place AND o.start_minute = 490 AND o.state = 1)
            """, ("@place", place)));
        await AssertCodesAreBookingsAsync(place);

        var claimed = await host.Client().SendAsync(Entry(HttpMethod.Post, first, "/claim"));
        Assert.Equal(HttpStatusCode.Created, claimed.StatusCode);
        var code = (await JsonAsync(claimed))["code"]!.GetValue<string>();
        // Booked: the booking's code, the hold gone.
        Assert.Equal(1, await Rows.CountAsync(Seat + " AND code = @code AND hold = 0 AND offer_id IS NULL", ("@place", place), ("@code", code)));
        await AssertCodesAreBookingsAsync(place);
    }

    /// <summary>Every seat of the place with a code holds a booking's code: no other value (the old '~h' and '~w' holds) lives there.</summary>
    private async Task AssertCodesAreBookingsAsync(int place)
    {
        Assert.True(await Rows.CountAsync("SELECT COUNT(*) FROM hot_seats WHERE place_id = @place AND code IS NOT NULL", ("@place", place)) >= 5);
        Assert.Equal(0, await Rows.CountAsync("""
            SELECT COUNT(*) FROM hot_seats s
            WHERE s.place_id = @place AND s.code IS NOT NULL
              AND NOT EXISTS (SELECT 1 FROM hot_reservations r WHERE r.code = s.code AND r.place_id = s.place_id
                              AND r.day = s.day AND r.start_minute = s.start_minute AND r.seat_no = s.seat_no)
            """, ("@place", place)));
        Assert.Equal(0, await Rows.CountAsync("SELECT COUNT(*) FROM hot_seats WHERE place_id = @place AND code LIKE '~%'", ("@place", place)));
    }

    [Fact]
    public async Task A_hold_nobody_claims_expires_and_the_seat_goes_to_the_next_in_line()
    {
        await StartAsync();
        var day = Today.AddDays(2);
        var (place, booked) = await SoldOutAsync(day);
        var first = await JoinAsync(place, day, People.Next());
        var second = await JoinAsync(place, day, People.Next());
        await CancelAsync(booked[0]);
        await StepAsync();
        Assert.Equal("offered", (await EntryAsync(first))["state"]!.GetValue<string>());

        await StepAsync(DateTimeOffset.UtcNow.AddMinutes(16));

        Assert.Equal("expired", (await EntryAsync(first))["state"]!.GetValue<string>());
        var next = await EntryAsync(second);
        Assert.Equal(("offered", "08:00"), (next["state"]!.GetValue<string>(), next["offer"]!["time"]!.GetValue<string>()));
        var late = await Host.Client().SendAsync(Entry(HttpMethod.Post, first, "/claim"));
        Assert.Equal(HttpStatusCode.Gone, late.StatusCode);
        Assert.Equal("offer-expired", await ProblemCodeAsync(late));
    }

    [Fact]
    public async Task A_waiter_who_books_elsewhere_leaves_the_line_and_the_next_gets_the_seat()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var (place, booked) = await SoldOutAsync(day);
        var elsewhere = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: day);
        var impatient = People.Next();
        var first = await JoinAsync(place, day, impatient);
        var second = await JoinAsync(place, day, People.Next());
        Assert.Equal(HttpStatusCode.Created, (await host.Client().SendAsync(Reserve(elsewhere, day, "08:00", impatient))).StatusCode);
        await CancelAsync(booked[2]);

        await StepAsync();

        Assert.Equal("left", (await EntryAsync(first))["state"]!.GetValue<string>());
        Assert.Equal("offered", (await EntryAsync(second))["state"]!.GetValue<string>());
    }

    [Fact]
    public async Task Joins_are_refused_while_seats_are_free_once_per_person_and_for_someone_holding_a_booking()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var open = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: day);
        var (place, booked) = await SoldOutAsync(day);
        var person = People.Next();

        var free = await host.Client().SendAsync(Join(open, day, day, person));
        await JoinAsync(place, day, person);
        var twice = await host.Client().SendAsync(Join(place, day, day, person));
        var holder = await host.Client().SendAsync(Join(place, day, day, booked[0].Person));
        var backwards = await host.Client().SendAsync(Join(place, day, day.AddDays(-1), People.Next()));
        var past = await host.Client().SendAsync(Join(place, Today.AddDays(-1), day, People.Next()));

        Assert.Equal("seats-free", await ProblemCodeAsync(free));
        Assert.Equal("waiting-list-joined", await ProblemCodeAsync(twice));
        Assert.Equal(1, (await JsonAsync(twice))["position"]!.GetValue<int>());
        Assert.Equal("already-booked", await ProblemCodeAsync(holder));
        await AssertInvalidAsync(backwards, "to");
        await AssertInvalidAsync(past, "from");
    }

    [Fact]
    public async Task A_join_names_its_service_where_the_place_offers_several_and_a_booking_of_another_service_does_not_refuse_it()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var (place, booked) = await SoldOutAsync(day);
        await Rows.ExecuteAsync("INSERT INTO services (id, code, name_sk, name_en) VALUES (2, 'pcr', 'PCR test', 'PCR test')");
        await Rows.ExecuteAsync("INSERT INTO place_services (place_id, service_id, seats) VALUES (@place, 2, 1)", ("@place", place));
        host.Services.GetRequiredService<Slots.Catalogue.ServiceDirectory>().Invalidate();
        HttpRequestMessage JoinFor(string service, Person person) => new(HttpMethod.Post, "/api/waiting-list")
        {
            Content = JsonContent.Create(new { placeId = place, from = Day(day), to = Day(day), name = person.Name, phone = person.Phone, nationalId = person.NationalId, service }),
        };

        var unnamed = await host.Client().SendAsync(Join(place, day, day, People.Next()));
        var unknown = await host.Client().SendAsync(JoinFor("booster", People.Next()));
        var pcr = await host.Client().SendAsync(JoinFor("pcr", booked[0].Person)); // holds an antigen booking, none for PCR
        var antigen = await host.Client().SendAsync(JoinFor("default", booked[0].Person));

        await AssertInvalidAsync(unnamed, "service");
        Assert.Equal("unknown-service", await ProblemCodeAsync(unknown));
        Assert.Equal(HttpStatusCode.Created, pcr.StatusCode);
        Assert.Equal(1, await Rows.CountAsync("SELECT COUNT(*) FROM waitlist WHERE place_id = @place AND service_id = 2", ("@place", place)));
        Assert.Equal("waiting-list-joined", await ProblemCodeAsync(antigen)); // one entry per person and place
    }

    [Fact]
    public async Task The_same_person_joining_twice_at_once_gets_one_entry()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var (place, _) = await SoldOutAsync(day);
        var person = People.Next();

        var answers = await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => host.Client().SendAsync(Join(place, day, day, person))));

        Assert.Single(answers, a => a.StatusCode == HttpStatusCode.Created);
        Assert.All(answers.Where(a => a.StatusCode != HttpStatusCode.Created), a => Assert.Equal(HttpStatusCode.Conflict, a.StatusCode));
        Assert.Equal(1, await Rows.CountAsync("SELECT COUNT(*) FROM waitlist WHERE place_id = @place", ("@place", place)));
    }

    [Fact]
    public async Task Leaving_by_token_hands_a_held_seat_to_the_next_and_an_unknown_token_reveals_nothing()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var (place, booked) = await SoldOutAsync(day);
        var first = await JoinAsync(place, day, People.Next());
        var second = await JoinAsync(place, day, People.Next());
        await CancelAsync(booked[3]);
        await StepAsync();

        Assert.Equal(HttpStatusCode.NoContent, (await host.Client().SendAsync(Entry(HttpMethod.Delete, first))).StatusCode);
        await StepAsync();

        Assert.Equal("left", (await EntryAsync(first))["state"]!.GetValue<string>());
        Assert.Equal("offered", (await EntryAsync(second))["state"]!.GetValue<string>());
        var unknown = await host.Client().SendAsync(Entry(HttpMethod.Get, new string('0', 32)));
        var malformed = await host.Client().SendAsync(Entry(HttpMethod.Get, "not-a-token"));
        Assert.Equal("waiting-list-entry-not-found", await ProblemCodeAsync(unknown));
        await AssertInvalidAsync(malformed, TokenHeader);
    }

    [Fact]
    public async Task Seats_nobody_in_line_wants_go_back_to_everyone()
    {
        var host = await StartAsync();
        var day = Today.AddDays(2);
        var (place, booked) = await SoldOutAsync(day);
        var only = await JoinAsync(place, day, People.Next());
        Assert.Equal(HttpStatusCode.NoContent, (await host.Client().SendAsync(Entry(HttpMethod.Delete, only))).StatusCode);
        await CancelAsync(booked[4]);   // nobody waits any more: free for everyone at once

        await StepAsync();

        Assert.Equal(1, await FreeSeatsAsync(host.Client(), place, day, "08:40"));
    }
}
