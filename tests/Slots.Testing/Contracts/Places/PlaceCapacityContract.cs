using System.Net;
using System.Net.Http.Json;
using Microsoft.Extensions.DependencyInjection;
using Slots.Testing.Web;
using Slots.Window;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Places;

/// <summary>
/// An admin adds and cuts seats of published slots, on every backend: added seats book at once on hot
/// and disk days, or go to the waiting list first where it wants the day; a cut takes free seats only,
/// moves the bookings on seats past the new count down (so the window's seat numbers hold), and a cut
/// below what is booked changes nothing anywhere and names the bookings; admins only; bad input is a
/// problem naming the field.
/// </summary>
public abstract class PlaceCapacityContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private static readonly string[] Times = ["08:00", "08:10", "08:20", "08:30", "08:40", "08:50"];
    private static readonly DateOnly HotDay = Today.AddDays(2);
    private static readonly DateOnly DiskDay = Today.AddDays(40);
    private SlotsHost? _host;
    private Rows? _rows;

    private async Task<SlotsHost> StartAsync()
    {
        var settings = await CreateDatabaseAsync("db");
        _rows = new Rows(settings);
        _host = NewHost(settings);
        return _host;
    }

    private static Task<HttpResponseMessage> SetAsync(HttpClient admin, int place, DateOnly from, DateOnly to, string? time, int seats) =>
        admin.PostAsJsonAsync($"/api/admin/places/{place}/capacity", new { from = Day(from), to = Day(to), time, seats });

    private static async Task<string> BookAsync(HttpClient client, int place, DateOnly day, string time, Person person)
    {
        var booked = await client.SendAsync(Reserve(place, day, time, person));
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        return (await JsonAsync(booked))["code"]!.GetValue<string>();
    }

    private Task<List<int>> SeatNumbersAsync(string table, int place, DateOnly day, string time, bool booked) => _rows!.QueryAsync(
        $"SELECT seat_no FROM {table} WHERE place_id = @place AND day = @day AND start_minute = @minute"
            + (table == "reservations" ? " AND cancelled_at IS NULL" : booked ? " AND code IS NOT NULL" : "") + " ORDER BY seat_no",
        r => r.GetInt32(0), ("@place", place), ("@day", day), ("@minute", Minute(time)));

    private static int Minute(string time) => (int.Parse(time[..2], System.Globalization.CultureInfo.InvariantCulture) * 60)
        + int.Parse(time[3..], System.Globalization.CultureInfo.InvariantCulture);

    [Fact]
    public async Task Added_seats_book_at_once_on_hot_and_disk_days_and_the_trail_records_the_change()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 1, HotDay, DiskDay);
        await BookAsync(client, place, HotDay, "08:00", People.Next());
        await BookAsync(client, place, DiskDay, "08:00", People.Next());
        Assert.Equal(HttpStatusCode.Conflict, (await client.SendAsync(Reserve(place, HotDay, "08:00", People.Next()))).StatusCode);

        var set = await SetAsync(admin, place, HotDay, DiskDay, "08:00", 3);

        Assert.Equal(HttpStatusCode.OK, set.StatusCode);
        var answer = await JsonAsync(set);
        Assert.Equal(3, answer["slots"]!.GetValue<int>()); // 08:00 of the hot day, the day after it and the disk day
        Assert.Equal(6, answer["seatsAdded"]!.GetValue<int>());
        Assert.Equal(0, answer["heldForWaitingList"]!.GetValue<int>());
        Assert.Equal("default", answer["service"]!.GetValue<string>());
        Assert.Equal(2, await FreeSeatsAsync(client, place, HotDay, "08:00"));
        Assert.Equal(1, await FreeSeatsAsync(client, place, HotDay, "08:10")); // another time keeps its seats
        await BookAsync(client, place, HotDay, "08:00", People.Next());
        await BookAsync(client, place, DiskDay, "08:00", People.Next());
        Assert.Equal([1, 2, 3], await SeatNumbersAsync("hot_seats", place, HotDay, "08:00", booked: false));
        var trail = await _rows!.QueryAsync("SELECT action, target FROM staff_audit WHERE place_id = @place AND action = 'capacity-changed'",
            r => r.GetString(1), ("@place", place));
        Assert.Equal($"default {Day(HotDay)}..{Day(DiskDay)} 08:00 seats 3", Assert.Single(trail));
    }

    [Fact]
    public async Task A_cut_below_what_a_slot_has_booked_changes_nothing_anywhere_and_names_the_bookings()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 2, HotDay, DiskDay);
        var hot = new[] { await BookAsync(client, place, HotDay, "08:20", People.Next()), await BookAsync(client, place, HotDay, "08:20", People.Next()) };
        var disk = new[] { await BookAsync(client, place, DiskDay, "08:20", People.Next()), await BookAsync(client, place, DiskDay, "08:20", People.Next()) };

        var cut = await SetAsync(admin, place, HotDay, DiskDay, null, 1);

        Assert.Equal(HttpStatusCode.Conflict, cut.StatusCode);
        Assert.Equal("capacity-below-booked", await ProblemCodeAsync(cut));
        var named = (await JsonAsync(cut))["bookings"]!.AsArray()
            .Select(b => (b!["code"]!.GetValue<string>(), b["day"]!.GetValue<string>(), b["time"]!.GetValue<string>())).ToList();
        Assert.Equal(hot.Select(c => (c, Day(HotDay), "08:20")).Concat(disk.Select(c => (c, Day(DiskDay), "08:20"))).OrderBy(b => b.Item1),
            named.OrderBy(b => b.Item1));
        // Nothing changed, not even the slots that had room for the cut.
        Assert.Equal(2, await FreeSeatsAsync(client, place, HotDay, "08:00"));
        Assert.Equal(2, await FreeSeatsAsync(client, place, DiskDay, "08:00"));
        Assert.Equal(0, await _rows!.CountAsync("SELECT COUNT(*) FROM slots WHERE place_id = @place AND capacity <> 2", ("@place", place)));
        Assert.Equal(0, await _rows.CountAsync("SELECT COUNT(*) FROM staff_audit WHERE place_id = @place AND action = 'capacity-changed'", ("@place", place)));
    }

    [Fact]
    public async Task A_cut_takes_free_seats_and_moves_the_bookings_past_the_new_count_down_on_hot_and_disk_days()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 3, HotDay, DiskDay);
        foreach (var day in new[] { HotDay, DiskDay })
        {
            // Seats 1, 2 and 3 booked, then 1 and 2 cancelled: the booking left sits on seat 3.
            var people = new[] { People.Next(), People.Next(), People.Next() };
            var codes = new List<string>();
            foreach (var person in people)
            {
                codes.Add(await BookAsync(client, place, day, "08:30", person));
            }
            for (var i = 0; i < 2; i++)
            {
                var cancelled = await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{codes[i]}", people[i].Phone));
                Assert.Equal(HttpStatusCode.NoContent, cancelled.StatusCode);
            }
        }
        Assert.Equal([3], await SeatNumbersAsync("hot_seats", place, HotDay, "08:30", booked: true));

        var cut = await SetAsync(admin, place, HotDay, DiskDay, "08:30", 1);

        Assert.Equal(HttpStatusCode.OK, cut.StatusCode);
        var answer = await JsonAsync(cut);
        Assert.Equal(3, answer["slots"]!.GetValue<int>());
        Assert.Equal(0, answer["seatsAdded"]!.GetValue<int>());
        Assert.Equal(2 + 2 + 2, answer["seatsRemoved"]!.GetValue<int>()); // two free seats of each slot
        Assert.Equal(0, await FreeSeatsAsync(client, place, HotDay, "08:30"));
        Assert.Equal(0, await FreeSeatsAsync(client, place, DiskDay, "08:30"));
        Assert.Equal(1, await FreeSeatsAsync(client, place, HotDay.AddDays(1), "08:30"));
        Assert.Equal([1], await SeatNumbersAsync("hot_seats", place, HotDay, "08:30", booked: false));
        Assert.Equal([1], await SeatNumbersAsync("hot_reservations", place, HotDay, "08:30", booked: true));
        Assert.Equal([1], await SeatNumbersAsync("reservations", place, DiskDay, "08:30", booked: true));
        // The hot booking's new seat reaches the disk table with the next flush.
        await using (var scope = host.Services.CreateAsyncScope())
        {
            var sync = scope.ServiceProvider.GetRequiredService<IWindowSync>();
            while (await sync.FlushAsync(500, default) > 0)
            {
            }
        }
        Assert.Equal([1], await SeatNumbersAsync("reservations", place, HotDay, "08:30", booked: true));
        Assert.Equal(HttpStatusCode.Conflict, (await client.SendAsync(Reserve(place, HotDay, "08:30", People.Next()))).StatusCode);
    }

    [Fact]
    public async Task Seats_added_on_a_day_the_waiting_list_wants_are_kept_for_it()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1, HotDay);
        foreach (var time in Times)
        {
            await BookAsync(client, place, HotDay, time, People.Next());
        }
        var waiter = People.Next();
        var joined = await client.PostAsJsonAsync("/api/waiting-list", new
        {
            placeId = place,
            from = Day(HotDay),
            to = Day(HotDay),
            name = waiter.Name,
            phone = waiter.Phone,
            nationalId = waiter.NationalId,
            language = "en",
        });
        Assert.Equal(HttpStatusCode.Created, joined.StatusCode);

        var set = await SetAsync(admin, place, HotDay, HotDay, "08:00", 2);

        Assert.Equal(HttpStatusCode.OK, set.StatusCode);
        Assert.Equal(1, (await JsonAsync(set))["heldForWaitingList"]!.GetValue<int>());
        // Kept for the line: the crowd cannot take it, the waiting-list job offers it.
        Assert.Equal(HttpStatusCode.Conflict, (await client.SendAsync(Reserve(place, HotDay, "08:00", People.Next()))).StatusCode);
        Assert.Equal(1, await _rows!.CountAsync(
            "SELECT COUNT(*) FROM hot_seats WHERE place_id = @place AND seat_no = 2 AND hold = 1 AND code IS NULL", ("@place", place)));
    }

    [Fact]
    public async Task Only_admins_change_seats_and_bad_input_is_a_problem_naming_the_field()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1, HotDay);

        Assert.Equal(HttpStatusCode.Forbidden, (await SetAsync(host.ViewerClient(), place, HotDay, HotDay, null, 2)).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await SetAsync(host.Client(), place, HotDay, HotDay, null, 2)).StatusCode);
        await AssertInvalidAsync(await SetAsync(admin, place, HotDay, HotDay, null, 0), "seats");
        await AssertInvalidAsync(await SetAsync(admin, place, HotDay, HotDay, "8:00", 2), "time");
        await AssertInvalidAsync(await SetAsync(admin, place, HotDay, HotDay.AddDays(-1), null, 2), "to");
        await AssertInvalidAsync(await admin.PostAsJsonAsync($"/api/admin/places/{place}/capacity", new { to = Day(HotDay), seats = 2 }), "from");
        await AssertInvalidAsync(await SetAsync(admin, place, Today.AddDays(-3), HotDay, null, 2), "from");
        var unknown = await SetAsync(admin, 999_999, HotDay, HotDay, null, 2);
        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
        Assert.Equal("unknown-place", await ProblemCodeAsync(unknown));
        var service = await admin.PostAsJsonAsync($"/api/admin/places/{place}/capacity", new { service = "pcr-none", from = Day(HotDay), to = Day(HotDay), seats = 2 });
        Assert.Equal("unknown-service", await ProblemCodeAsync(service));
        Assert.Equal(1, await FreeSeatsAsync(host.Client(), place, HotDay, "08:00"));
    }
}
