using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reminders;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Reminders;

/// <summary>
/// Day-before reminders on every backend: each booking once per time it holds, none for a cancelled
/// one, the new time for a moved one, each place at its own evening, a place already done passed over
/// until its recheck, and a run cut off half-way finished by the next with nobody reminded twice.
/// </summary>
public abstract class ReminderContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private SlotsHost? _host;
    private Rows? _rows;

    private async Task<SlotsHost> StartAsync()
    {
        var settings = await CreateDatabaseAsync("db");
        _rows = new Rows(settings);
        // The tests drive the reminders at instants of their own; the job on the real clock stays out of their way.
        _host = NewHost(settings, new Dictionary<string, string?> { ["Slots:Reminders:Enabled"] = "false" });
        return _host;
    }

    private DayBeforeReminders Reminders => _host!.Services.GetRequiredService<DayBeforeReminders>();

    /// <summary>17:30 today in Bratislava: the evening the next day's bookings are reminded.</summary>
    private static DateTimeOffset EveningBefore(DateOnly day) =>
        Slots.Window.LocalClock.ToInstant(day.AddDays(-1), (17 * 60) + 30, Bratislava);

    private Task<List<(string Code, int StartMinute)>> RemindedAsync(int place) => _rows!.QueryAsync(
        "SELECT code, start_minute FROM outbox WHERE kind = 5 AND place_id = @place ORDER BY code, start_minute",
        r => (r.GetString(0), Convert.ToInt32(r.GetValue(1), System.Globalization.CultureInfo.InvariantCulture)), ("@place", place));

    private static async Task<List<(string Code, Person Person)>> BookAsync(HttpClient client, int place, DateOnly day, string time, int count)
    {
        var booked = new List<(string, Person)>();
        for (var i = 0; i < count; i++)
        {
            var person = People.Next();
            var response = await client.SendAsync(Reserve(place, day, time, person));
            Assert.Equal(HttpStatusCode.Created, response.StatusCode);
            booked.Add(((await JsonAsync(response))["code"]!.GetValue<string>(), person));
        }
        return booked;
    }

    [Fact]
    public async Task Each_booking_of_the_next_day_is_reminded_once_and_a_cancelled_one_not_at_all()
    {
        var host = await StartAsync();
        var day = Today.AddDays(1);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 3, day: day);
        var booked = await BookAsync(host.Client(), place, day, "08:00", 3);
        var (gone, goneBy) = booked[2];
        Assert.Equal(HttpStatusCode.NoContent, (await host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{gone}", goneBy.Phone))).StatusCode);
        var ct = TestContext.Current.CancellationToken;

        var early = await Reminders.QueueDueAsync(EveningBefore(day).AddHours(-1), 1000, ct);
        var first = await Reminders.QueueDueAsync(EveningBefore(day), 1000, ct);
        var again = await Reminders.QueueDueAsync(EveningBefore(day).AddMinutes(15), 1000, ct);

        Assert.Equal((0, 2, 0), (early, first, again));
        Assert.Equal(booked.Take(2).Select(b => (b.Code, 8 * 60)).Order(), await RemindedAsync(place));
    }

    // At 1,000 places every run of an evening asked each place already reminded once more (docs/benchmarks.md,
    // reminders on PostgreSQL): a place with nothing left is now passed over for Slots:Reminders:RecheckAfter (5 min).
    [Fact]
    public async Task A_place_with_nothing_left_is_passed_over_until_the_recheck_which_reminds_a_booking_made_since()
    {
        var host = await StartAsync();
        var day = Today.AddDays(1);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 3, day: day);
        var first = await BookAsync(host.Client(), place, day, "08:00", 1);
        var ct = TestContext.Current.CancellationToken;
        var evening = EveningBefore(day);
        Assert.Equal(1, await Reminders.QueueDueAsync(evening, 1000, ct));

        var late = await BookAsync(host.Client(), place, day, "08:00", 1);
        var passedOver = await Reminders.QueueDueAsync(evening.AddMinutes(1), 1000, ct);
        var rechecked = await Reminders.QueueDueAsync(evening.AddMinutes(5), 1000, ct);
        var again = await Reminders.QueueDueAsync(evening.AddMinutes(11), 1000, ct);

        Assert.Equal((0, 1, 0), (passedOver, rechecked, again));
        Assert.Equal(first.Concat(late).Select(b => (b.Code, 8 * 60)).Order(), await RemindedAsync(place));
    }

    [Fact]
    public async Task A_moved_booking_is_reminded_of_its_new_time()
    {
        var host = await StartAsync();
        var day = Today.AddDays(1);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, day: day);
        var (code, person) = (await BookAsync(host.Client(), place, day, "08:00", 1))[0];
        var ct = TestContext.Current.CancellationToken;
        Assert.Equal(1, await Reminders.QueueDueAsync(EveningBefore(day), 1000, ct));

        var moved = await host.Client().SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{code}/reschedule", person.Phone,
            new { placeId = place, day = Day(day), time = "08:30" }));
        Assert.Equal(HttpStatusCode.OK, moved.StatusCode);
        var after = await Reminders.QueueDueAsync(EveningBefore(day).AddMinutes(30), 1000, ct);

        Assert.Equal(1, after);
        Assert.Equal([(code, 8 * 60), (code, (8 * 60) + 30)], await RemindedAsync(place));
    }

    [Fact]
    public async Task Each_place_is_reminded_at_its_own_evening()
    {
        var host = await StartAsync();
        var admin = host.AdminClient();
        var day = DateOnly.FromDateTime(DateTime.UtcNow).AddDays(3);
        var east = await PlaceInAsync(admin, "Etc/GMT-12", day);   // UTC+12
        var west = await PlaceInAsync(admin, "Etc/GMT+5", day);    // UTC-5
        await BookAsync(host.Client(), east, day, "08:00", 1);
        await BookAsync(host.Client(), west, day, "08:00", 1);
        // 06:00 UTC the day before: 18:00 there in the east (due), 01:00 in the west (not yet).
        var now = new DateTimeOffset(day.AddDays(-1).ToDateTime(new TimeOnly(6, 0)), TimeSpan.Zero);

        Assert.Equal(1, await Reminders.QueueDueAsync(now, 1000, TestContext.Current.CancellationToken));

        Assert.Single(await RemindedAsync(east));
        Assert.Empty(await RemindedAsync(west));
        Assert.Equal(1, await Reminders.QueueDueAsync(now.AddHours(17), 1000, TestContext.Current.CancellationToken)); // 18:00 in the west
        Assert.Single(await RemindedAsync(west));
    }

    [Fact]
    public async Task A_run_cut_off_half_way_is_finished_by_the_next_and_nobody_is_reminded_twice()
    {
        var host = await StartAsync();
        var day = Today.AddDays(1);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 5, day: day);
        var booked = await BookAsync(host.Client(), place, day, "08:10", 5);
        var ct = TestContext.Current.CancellationToken;
        var store = host.Services.GetRequiredService<IReminderStore>();

        // A run that got through one batch of two and stopped (its allowance, or the process killed after the commit).
        Assert.Equal(2, await Reminders.QueueDueAsync(EveningBefore(day), 2, ct));
        Assert.Equal(2, await store.QueueAsync(place, day, EveningBefore(day), 2, ct));
        var rest = await Reminders.QueueDueAsync(EveningBefore(day).AddMinutes(1), 1000, ct);

        Assert.Equal(1, rest);
        Assert.Equal(booked.Select(b => (b.Code, (8 * 60) + 10)).Order(), await RemindedAsync(place));
    }

    [Fact]
    public async Task Reminders_of_days_gone_by_are_forgotten_and_later_ones_kept()
    {
        var host = await StartAsync();
        var day = Today.AddDays(1);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2, day: day);
        await BookAsync(host.Client(), place, day, "08:00", 2);
        var ct = TestContext.Current.CancellationToken;
        Assert.Equal(2, await Reminders.QueueDueAsync(EveningBefore(day), 1000, ct));
        var store = host.Services.GetRequiredService<IReminderStore>();

        Assert.Equal(0, await store.ForgetBeforeAsync(day, ct));
        Assert.Equal(2, await store.ForgetBeforeAsync(day.AddDays(1), ct));
        Assert.Equal(0, await _rows!.CountAsync("SELECT COUNT(*) FROM reminders"));
    }

    private static async Task<int> PlaceInAsync(HttpClient admin, string zone, DateOnly day)
    {
        var created = await admin.PostAsJsonAsync("/api/admin/places", new
        {
            name = $"Reminder test {Guid.NewGuid():N}",
            address = "Hlavná 1, 811 01 Bratislava",
            region = "Bratislavský kraj",
            timeZone = zone,
        });
        created.EnsureSuccessStatusCode();
        var place = (await created.Content.ReadFromJsonAsync<JsonObject>())!["id"]!.GetValue<int>();
        var generated = await admin.PostAsJsonAsync("/api/admin/slots/generate", new
        {
            placeIds = new[] { place },
            from = Day(day),
            to = Day(day),
            template = new { firstStart = "08:00", lastStart = "08:00", intervalMinutes = 10, lengthMinutes = 10 },
            capacity = 2,
        });
        generated.EnsureSuccessStatusCode();
        return place;
    }
}
