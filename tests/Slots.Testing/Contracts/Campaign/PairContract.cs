using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Campaign;

/// <summary>
/// Both doses in one booking, on every backend that seats pairs (issue 41 item 3): a booking of a
/// two-dose service takes the first dose's seat and the earliest free seat of the second in its
/// interval, at the same place and time, in one transaction, or neither. Hot to disk (the usual
/// case: the second dose lies beyond the 30-day window), hot to hot and disk to disk; races for the
/// last pairs and the last second seat; the pair found, cancelled and its second dose moved through
/// the first code; the one-booking rule counting the pair once.
/// </summary>
public abstract class PairContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private static readonly DateOnly HotDay = Today.AddDays(2);

    /// <summary>A host whose default service takes two doses <paramref name="minDays"/> to <paramref name="maxDays"/> days apart.</summary>
    private async Task<SlotsHost> TwoDoseHostAsync(int minDays, int maxDays)
    {
        var host = NewHost(await CreateDatabaseAsync("pair"));
        await TwoDosesAsync(host.AdminClient(), minDays, maxDays);
        return host;
    }

    /// <summary>A place with slots 08:00–08:50 on each day given, with that day's seats per slot.</summary>
    private static async Task<int> PlaceAsync(HttpClient admin, params (DateOnly Day, int Seats)[] days)
    {
        var place = await CreatePlaceWithSlotsAsync(admin, days[0].Seats, days[0].Day);
        foreach (var (day, seats) in days.Skip(1))
        {
            await GenerateSlotsAsync(admin, place, day, day, seats);
        }
        return place;
    }

    private static HttpRequestMessage Book(int place, DateOnly day, string time, Person person, DateOnly? secondDay = null, string? secondTime = null) =>
        new(HttpMethod.Post, "/api/reservations")
        {
            Headers = { { "Idempotency-Key", Guid.NewGuid().ToString() } },
            Content = JsonContent.Create(new
            {
                placeId = place,
                day = Day(day),
                time,
                name = person.Name,
                phone = person.Phone,
                nationalId = person.NationalId,
                secondDay = secondDay is { } d ? Day(d) : null,
                secondTime,
            }),
        };

    private static HttpRequestMessage MoveSecond(string code, Person person, int place, DateOnly day, string time, int dose = 2) =>
        WithPhone(HttpMethod.Post, $"/api/reservations/{code}/reschedule", person.Phone, new { placeId = place, day = Day(day), time, dose });

    [Fact]
    public async Task A_pair_takes_the_first_seat_and_the_earliest_second_beyond_the_window_and_is_found_and_cancelled_whole()
    {
        var host = await TwoDoseHostAsync(35, 40);
        var admin = host.AdminClient();
        var client = host.Client();
        var secondDay = HotDay.AddDays(36); // day 35 has no slots: the earliest in the interval with one is day 36, on disk
        var place = await PlaceAsync(admin, (HotDay, 3), (secondDay, 2), (HotDay.AddDays(38), 2));
        var person = People.Next();

        var booked = await client.SendAsync(Book(place, HotDay, "08:10", person));

        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        var body = await JsonAsync(booked);
        var code = body["code"]!.GetValue<string>();
        Assert.Equal(Day(secondDay), body["secondDose"]!["day"]!.GetValue<string>());
        Assert.Equal("08:10", body["secondDose"]!["time"]!.GetValue<string>());
        Assert.Equal(10, body["secondDose"]!["minutes"]!.GetValue<int>());
        Assert.Equal(2, await FreeSeatsAsync(client, place, HotDay, "08:10"));
        Assert.Equal(1, await FreeSeatsAsync(client, place, secondDay, "08:10"));

        var found = await JsonAsync(await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone)));
        Assert.Equal(Day(HotDay), found["day"]!.GetValue<string>());
        Assert.Equal(Day(secondDay), found["secondDose"]!["day"]!.GetValue<string>());

        // The pair counts once: the same person cannot book another pair (nor a second first dose).
        var again = await client.SendAsync(Book(place, HotDay, "08:20", person));
        Assert.Equal(HttpStatusCode.Conflict, again.StatusCode);
        Assert.Equal("already-booked", await ProblemCodeAsync(again));

        Assert.Equal(HttpStatusCode.NoContent, (await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone))).StatusCode);
        Assert.Equal(3, await FreeSeatsAsync(client, place, HotDay, "08:10"));
        Assert.Equal(2, await FreeSeatsAsync(client, place, secondDay, "08:10"));
        // Cancelled whole: the person may book a pair again.
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Book(place, HotDay, "08:20", person))).StatusCode);
    }

    [Fact]
    public async Task Both_doses_on_hot_days_and_both_on_disk_days()
    {
        var host = await TwoDoseHostAsync(3, 5);
        var admin = host.AdminClient();
        var client = host.Client();
        var diskFirst = Today.AddDays(45);
        var place = await PlaceAsync(admin, (HotDay, 2), (HotDay.AddDays(4), 2), (diskFirst, 2), (diskFirst.AddDays(5), 2));

        foreach (var (first, second) in new[] { (HotDay, HotDay.AddDays(4)), (diskFirst, diskFirst.AddDays(5)) })
        {
            var booked = await client.SendAsync(Book(place, first, "08:00", People.Next()));
            Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
            Assert.Equal(Day(second), (await JsonAsync(booked))["secondDose"]!["day"]!.GetValue<string>());
            Assert.Equal(1, await FreeSeatsAsync(client, place, first, "08:00"));
            Assert.Equal(1, await FreeSeatsAsync(client, place, second, "08:00"));
        }
    }

    [Fact]
    public async Task Six_people_for_five_pairs_get_five_and_one_second_dose_full_with_nothing_half_booked()
    {
        var host = await TwoDoseHostAsync(21, 21);
        var client = host.Client();
        var secondDay = HotDay.AddDays(21);
        var place = await PlaceAsync(host.AdminClient(), (HotDay, 10), (secondDay, 5));

        var answers = await Task.WhenAll(Enumerable.Range(0, 6).Select(_ => client.SendAsync(Book(place, HotDay, "08:30", People.Next()))));

        Assert.Equal(5, answers.Count(a => a.StatusCode == HttpStatusCode.Created));
        var refused = Assert.Single(answers, a => a.StatusCode != HttpStatusCode.Created);
        Assert.Equal(HttpStatusCode.Conflict, refused.StatusCode);
        Assert.Equal("second-dose-full", await ProblemCodeAsync(refused));
        // Five first seats taken, not six: the refused booking's first seat went back.
        Assert.Equal(5, await FreeSeatsAsync(client, place, HotDay, "08:30"));
        Assert.Equal(0, await FreeSeatsAsync(client, place, secondDay, "08:30"));
    }

    [Fact]
    public async Task One_second_seat_left_and_two_people_wanting_it_get_one_pair()
    {
        var host = await TwoDoseHostAsync(30, 32);
        var client = host.Client();
        var secondDay = HotDay.AddDays(31);
        var place = await PlaceAsync(host.AdminClient(), (HotDay, 4), (secondDay, 1));

        var answers = await Task.WhenAll(
            client.SendAsync(Book(place, HotDay, "08:00", People.Next())),
            client.SendAsync(Book(place, HotDay, "08:00", People.Next())));

        Assert.Single(answers, a => a.StatusCode == HttpStatusCode.Created);
        Assert.Equal("second-dose-full", await ProblemCodeAsync(Assert.Single(answers, a => a.StatusCode == HttpStatusCode.Conflict)));
        Assert.Equal(3, await FreeSeatsAsync(client, place, HotDay, "08:00"));
        Assert.Equal(0, await FreeSeatsAsync(client, place, secondDay, "08:00"));
    }

    [Fact]
    public async Task A_chosen_second_dose_is_seated_there_and_one_outside_the_interval_is_refused_before_any_seat()
    {
        var host = await TwoDoseHostAsync(21, 28);
        var client = host.Client();
        var place = await PlaceAsync(host.AdminClient(), (HotDay, 2), (HotDay.AddDays(21), 2), (HotDay.AddDays(27), 2), (HotDay.AddDays(29), 2));

        var chosen = await client.SendAsync(Book(place, HotDay, "08:00", People.Next(), HotDay.AddDays(27), "08:50"));
        Assert.Equal(HttpStatusCode.Created, chosen.StatusCode);
        var second = (await JsonAsync(chosen))["secondDose"]!;
        Assert.Equal(Day(HotDay.AddDays(27)), second["day"]!.GetValue<string>());
        Assert.Equal("08:50", second["time"]!.GetValue<string>());

        var outside = await client.SendAsync(Book(place, HotDay, "08:00", People.Next(), HotDay.AddDays(29), "08:00"));
        Assert.Equal(HttpStatusCode.UnprocessableEntity, outside.StatusCode);
        Assert.Equal("second-dose-outside-interval", await ProblemCodeAsync(outside));
        Assert.Equal(1, await FreeSeatsAsync(client, place, HotDay, "08:00"));

        var half = await client.SendAsync(Book(place, HotDay, "08:00", People.Next(), HotDay.AddDays(21)));
        await AssertInvalidAsync(half, "secondTime");
    }

    [Fact]
    public async Task The_second_dose_moves_within_its_interval_and_the_first_does_not_move()
    {
        // Both second-dose days on disk: a move keeps to one side of the window.
        var host = await TwoDoseHostAsync(30, 37);
        var client = host.Client();
        var early = HotDay.AddDays(30);
        var late = HotDay.AddDays(37);
        var place = await PlaceAsync(host.AdminClient(), (HotDay, 2), (early, 2), (late, 2), (late.AddDays(1), 2));
        var person = People.Next();
        var code = (await JsonAsync(await client.SendAsync(Book(place, HotDay, "08:00", person))))["code"]!.GetValue<string>();

        var moved = await client.SendAsync(MoveSecond(code, person, place, late, "08:30"));

        Assert.Equal(HttpStatusCode.OK, moved.StatusCode);
        var body = await JsonAsync(moved);
        Assert.Equal(code, body["code"]!.GetValue<string>());
        Assert.Equal(Day(HotDay), body["day"]!.GetValue<string>());
        Assert.Equal(Day(late), body["secondDose"]!["day"]!.GetValue<string>());
        Assert.Equal("08:30", body["secondDose"]!["time"]!.GetValue<string>());
        Assert.Equal(2, await FreeSeatsAsync(client, place, early, "08:00"));
        Assert.Equal(1, await FreeSeatsAsync(client, place, late, "08:30"));

        var outside = await client.SendAsync(MoveSecond(code, person, place, late.AddDays(1), "08:00"));
        Assert.Equal(HttpStatusCode.UnprocessableEntity, outside.StatusCode);
        Assert.Equal("second-dose-outside-interval", await ProblemCodeAsync(outside));

        var first = await client.SendAsync(MoveSecond(code, person, place, HotDay, "08:10", dose: 1));
        Assert.Equal(HttpStatusCode.Conflict, first.StatusCode);
        Assert.Equal("pair-first-dose-fixed", await ProblemCodeAsync(first));
        Assert.Equal(1, await FreeSeatsAsync(client, place, HotDay, "08:00"));
    }

    [Fact]
    public async Task At_the_second_visit_the_door_checks_in_the_second_dose_by_the_pair_s_code()
    {
        // Today: the first dose 10-20 minutes from now; three days on, the second at the same time.
        var tokens = new StaffTokens();
        var database = await CreateDatabaseAsync("door");
        var host = NewHost(database, tokens.Settings);
        var admin = host.AdminClient();
        await TwoDosesAsync(admin, 3, 3);
        var (place, soon, _, today, _) = await Staff.StaffContract<TBackend>.PlaceOpenNowAsync(admin);
        await GenerateSlotsAsync(admin, place, today.AddDays(3), today.AddDays(3), 2, soon, soon);
        var person = People.Next();
        var booked = await JsonAsync(await host.Client().SendAsync(Book(place, today, soon, person)));
        Assert.Equal(Day(today.AddDays(3)), booked["secondDose"]!["day"]!.GetValue<string>());
        var code = booked["code"]!.GetValue<string>();

        // The same database three days later, at the door, with the code the person was given.
        var ahead = TimeSpan.FromDays(3);
        var later = NewHost(database, tokens.Settings, services => services.AddSingleton<TimeProvider>(new AheadClock(ahead)));
        var door = later.Client();
        door.DefaultRequestHeaders.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("Bearer",
            tokens.Spanning(ahead, "nurse-2", "site-staff", place));
        var checkedIn = await door.PostAsJsonAsync($"/api/staff/places/{place}/check-ins", new { code, nationalId = person.NationalId });

        Assert.Equal(HttpStatusCode.OK, checkedIn.StatusCode);
        Assert.Equal(soon, (await JsonAsync(checkedIn))["time"]!.GetValue<string>());
    }

    [Fact]
    public async Task A_walk_in_at_a_two_dose_service_books_the_pair_and_answers_both_doses()
    {
        var tokens = new StaffTokens();
        var host = NewHost(await CreateDatabaseAsync("walkin"), tokens.Settings);
        await TwoDosesAsync(host.AdminClient(), 4, 4);
        var place = await PlaceAsync(host.AdminClient(), (HotDay, 2), (HotDay.AddDays(4), 2));
        var staff = host.Client();
        staff.DefaultRequestHeaders.Authorization = new System.Net.Http.Headers.AuthenticationHeaderValue("Bearer",
            tokens.For("door-1", "site-staff", place));
        var person = People.Next();

        var booked = await staff.SendAsync(new HttpRequestMessage(HttpMethod.Post, $"/api/staff/places/{place}/walk-ins")
        {
            Headers = { { "Idempotency-Key", Guid.NewGuid().ToString() } },
            Content = JsonContent.Create(new { day = Day(HotDay), time = "08:20", name = person.Name, phone = person.Phone, nationalId = person.NationalId }),
        });

        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        Assert.Equal(Day(HotDay.AddDays(4)), (await JsonAsync(booked))["reservation"]!["secondDose"]!["day"]!.GetValue<string>());
        Assert.Equal(1, await FreeSeatsAsync(host.Client(), place, HotDay.AddDays(4), "08:20"));
    }

    /// <summary>The real clock, <paramref name="ahead"/> later: a host living on a later day.</summary>
    private sealed class AheadClock(TimeSpan ahead) : TimeProvider
    {
        public override DateTimeOffset GetUtcNow() => base.GetUtcNow().Add(ahead);
    }

    [Fact]
    public async Task A_single_booking_has_no_second_dose_to_choose_or_move()
    {
        var host = NewHost(await CreateDatabaseAsync("single"));
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, HotDay);
        var person = People.Next();

        var chosen = await client.SendAsync(Book(place, HotDay, "08:00", person, HotDay.AddDays(1), "08:00"));
        Assert.Equal(HttpStatusCode.UnprocessableEntity, chosen.StatusCode);
        Assert.Equal("no-second-dose", await ProblemCodeAsync(chosen));

        var booked = await JsonAsync(await client.SendAsync(Book(place, HotDay, "08:00", person)));
        Assert.Null(booked["secondDose"]);
        var move = await client.SendAsync(MoveSecond(booked["code"]!.GetValue<string>(), person, place, HotDay, "08:10"));
        Assert.Equal(HttpStatusCode.UnprocessableEntity, move.StatusCode);
        Assert.Equal("no-second-dose", await ProblemCodeAsync(move));
    }
}
