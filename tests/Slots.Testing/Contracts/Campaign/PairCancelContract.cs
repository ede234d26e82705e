using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Campaign;

/// <summary>
/// A two-dose pair goes whole, on every backend that seats pairs (issue 41 item 3): a site's block
/// cancel that takes either half takes the other too, hot or on disk, so nobody is left with half a
/// pair; a person whose first dose was checked in can still cancel what is left of the pair, its
/// second dose, by the pair's code; and the person's own data shows the pair under its code, as
/// dose 1 and dose 2, and its erasure cancels both.
/// </summary>
public abstract class PairCancelContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private static readonly DateOnly HotDay = Today.AddDays(2);
    private readonly StaffTokens _tokens = new();

    private async Task<SlotsHost> TwoDoseHostAsync(int minDays, int maxDays)
    {
        var host = NewHost(await CreateDatabaseAsync("paircancel"), _tokens.Settings);
        await TwoDosesAsync(host.AdminClient(), minDays, maxDays);
        return host;
    }

    private HttpClient As(SlotsHost host, string actor, string role, int place)
    {
        var client = host.Client();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _tokens.For(actor, role, place));
        return client;
    }

    private static async Task<string> BookPairAsync(HttpClient client, int place, DateOnly day, string time, Person person, DateOnly secondDay)
    {
        var booked = await client.SendAsync(Reserve(place, day, time, person));
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        var body = await JsonAsync(booked);
        Assert.Equal(Day(secondDay), body["secondDose"]!["day"]!.GetValue<string>());
        return body["code"]!.GetValue<string>();
    }

    [Theory]
    [InlineData(21, "both halves on hot days")]
    [InlineData(31, "the second dose on a disk day")]
    public async Task A_block_cancel_of_either_dose_s_day_cancels_the_whole_pair(int interval, string shape)
    {
        var host = await TwoDoseHostAsync(interval, interval);
        var admin = host.AdminClient();
        var client = host.Client();
        var secondDay = HotDay.AddDays(interval);
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 2, HotDay);
        await GenerateSlotsAsync(admin, place, secondDay, secondDay, 2);
        var (blockedFirst, blockedSecond) = (People.Next(), People.Next());
        var firstCode = await BookPairAsync(client, place, HotDay, "08:00", blockedFirst, secondDay);
        var secondCode = await BookPairAsync(client, place, HotDay, "08:30", blockedSecond, secondDay);
        var manager = As(host, "lead", "site-manager", place);

        // The first pair's first-dose day is blocked at 08:00; the second pair's second-dose day at 08:30.
        foreach (var (day, from, to) in new[] { (HotDay, "08:00", "08:10"), (secondDay, "08:30", "08:40") })
        {
            var block = await manager.PostAsJsonAsync($"/api/staff/places/{place}/block-cancels", new { day = Day(day), from, to, reason = "Porucha" });
            Assert.True(block.StatusCode == HttpStatusCode.OK, $"{shape}: {await block.Content.ReadAsStringAsync()}");
            Assert.Equal(1, (await JsonAsync(block))["cancelled"]!.GetValue<int>());
        }

        // Neither person holds anything: each pair answers that it was cancelled, and each seat outside the blocks is free again.
        foreach (var (code, person) in new[] { (firstCode, blockedFirst), (secondCode, blockedSecond) })
        {
            Assert.Equal(HttpStatusCode.Gone, (await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone))).StatusCode);
        }
        Assert.Equal(2, await FreeSeatsAsync(client, place, secondDay, "08:00"));
        Assert.Equal(2, await FreeSeatsAsync(client, place, HotDay, "08:30"));
        // The one-booking rule lets them book a pair again, away from the blocks.
        await BookPairAsync(client, place, HotDay, "08:20", blockedFirst, secondDay);
        await BookPairAsync(client, place, HotDay, "08:50", blockedSecond, secondDay);
    }

    [Fact]
    public async Task After_the_first_dose_is_checked_in_cancelling_the_pair_cancels_its_second_dose()
    {
        var host = await TwoDoseHostAsync(3, 3);
        var admin = host.AdminClient();
        var (place, soon, _, today, _) = await Staff.StaffContract<TBackend>.PlaceOpenNowAsync(admin);
        var secondDay = today.AddDays(3);
        await GenerateSlotsAsync(admin, place, secondDay, secondDay, 2, soon, soon);
        var person = People.Next();
        var client = host.Client();
        var code = await BookPairAsync(client, place, today, soon, person, secondDay);
        var door = As(host, "nurse-1", "site-staff", place);
        Assert.Equal(HttpStatusCode.OK, (await door.PostAsJsonAsync($"/api/staff/places/{place}/check-ins", new { code, nationalId = person.NationalId })).StatusCode);

        var cancelled = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone));

        Assert.Equal(HttpStatusCode.NoContent, cancelled.StatusCode);
        Assert.Equal(2, await FreeSeatsAsync(client, place, secondDay, soon));
        // The visit that happened stays; the pair shows no second dose any more.
        var found = await JsonAsync(await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone)));
        Assert.Equal(Day(today), found["day"]!.GetValue<string>());
        Assert.Null(found["secondDose"]);
        // Asked again: the same answer, nothing more changed.
        Assert.Equal(HttpStatusCode.NoContent, (await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone))).StatusCode);
    }

    [Fact]
    public async Task The_person_s_data_lists_both_doses_under_the_pair_s_code_and_erasing_it_frees_both_seats()
    {
        var host = await TwoDoseHostAsync(31, 31);
        var client = host.Client();
        var secondDay = HotDay.AddDays(31);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, HotDay);
        await GenerateSlotsAsync(host.AdminClient(), place, secondDay, secondDay, 2);
        var person = People.Next();
        var code = await BookPairAsync(client, place, HotDay, "08:10", person, secondDay);
        var url = $"/api/reservations/{code}/personal-data";

        var held = await JsonAsync(await client.SendAsync(WithPhone(HttpMethod.Get, url, person.Phone)));

        var bookings = held["bookings"]!.AsArray().OrderBy(b => b!["dose"]!.GetValue<int>()).ToList();
        Assert.Equal(2, bookings.Count);
        Assert.All(bookings, b => Assert.Equal(code, b!["code"]!.GetValue<string>()));
        Assert.Equal([1, 2], bookings.Select(b => b!["dose"]!.GetValue<int>()));
        Assert.Equal([Day(HotDay), Day(secondDay)], bookings.Select(b => b!["day"]!.GetValue<string>()));
        Assert.All(held["sms"]!.AsArray(), s => Assert.Equal(code, s!["code"]!.GetValue<string>()));

        Assert.Equal(HttpStatusCode.NoContent, (await client.SendAsync(WithPhone(HttpMethod.Delete, url, person.Phone))).StatusCode);
        Assert.Equal(2, await FreeSeatsAsync(client, place, HotDay, "08:10"));
        Assert.Equal(2, await FreeSeatsAsync(client, place, secondDay, "08:10"));
    }
}
