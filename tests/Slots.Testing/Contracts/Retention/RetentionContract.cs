using System.Net;
using System.Net.Http.Json;
using Microsoft.Extensions.DependencyInjection;
using Slots.Persons;
using Slots.Retention;
using Slots.Testing.Web;
using Slots.Window;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Retention;

/// <summary>
/// Personal data kept only as long as needed, on every backend: once the erasure has run for a
/// moment past the retention, no text column of any table holds the name, phone or person hash of
/// someone whose appointment (or waiting-list days) lay before it; a later appointment's person is
/// untouched, and the booking rows stay for the counts.
/// </summary>
public abstract class RetentionContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private SlotsHost? _host;
    private Rows? _rows;
    private string _provider = "";

    private async Task<SlotsHost> StartAsync()
    {
        var settings = await CreateDatabaseAsync("db");
        _rows = new Rows(settings);
        _provider = settings["Slots:Storage:Provider"] ?? "Sqlite";
        _host = NewHost(settings, new Dictionary<string, string?> { ["Slots:Retention:Every"] = "01:00:00" });
        return _host;
    }

    /// <summary>A person no other test shares a name, phone or id with.</summary>
    private static Person Unique()
    {
        var letters = new string(Enumerable.Range(0, 8).Select(_ => (char)('a' + Random.Shared.Next(26))).ToArray());
        return People.Next() with { Name = "Osoba Z" + letters };
    }

    private async Task<string> BookAsync(int place, DateOnly day, string time, Person person)
    {
        var response = await _host!.Client().SendAsync(Reserve(place, day, time, person));
        Assert.Equal(HttpStatusCode.Created, response.StatusCode);
        return (await JsonAsync(response))["code"]!.GetValue<string>();
    }

    private Task<List<string>> WhereHeldAsync(IEnumerable<string> values) => new PersonalDataScan(_rows!, _provider).WhereHeldAsync(values);

    private string[] Traces(Person person)
    {
        var identity = _host!.Services.GetRequiredService<PersonIdentity>();
        return [person.Name, person.Phone, identity.Hash(PersonIdentity.NormalizeNationalId(person.NationalId)!)];
    }

    private async Task<ErasedRows> EraseAsync(DateTimeOffset now)
    {
        await using var scope = _host!.Services.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<PersonalDataRetention>().EraseDueAsync(now, TestContext.Current.CancellationToken);
    }

    [Fact]
    public async Task After_the_retention_no_table_holds_the_name_phone_or_hash_of_a_past_booking_or_waiter_and_later_ones_stay()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var soon = Today.AddDays(1);
        var later = Today.AddDays(20);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: soon);
        var laterPlace = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: later);

        var booker = Unique();
        var moved = Unique();
        var waiter = Unique();
        var laterBooker = Unique();
        var times = new[] { "08:00", "08:10", "08:20", "08:30", "08:40", "08:50" };
        await BookAsync(place, soon, times[0], booker);
        // One who booked, moved and cancelled: the SMS rows of all three carry the phone.
        var movedCode = await BookAsync(place, soon, times[1], moved);
        Assert.Equal(HttpStatusCode.OK, (await host.Client().SendAsync(WithPhone(HttpMethod.Post, $"/api/reservations/{movedCode}/reschedule", moved.Phone,
            new { placeId = place, day = Day(soon), time = times[2] }))).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{movedCode}", moved.Phone))).StatusCode);
        foreach (var time in times.Skip(1))
        {
            await BookAsync(place, soon, time, Unique());
        }
        // The day is sold out, so the waiter joins the line for it.
        var joined = await host.Client().PostAsJsonAsync("/api/waiting-list", new
        {
            placeId = place,
            from = Day(soon),
            to = Day(soon),
            name = waiter.Name,
            phone = waiter.Phone,
            nationalId = waiter.NationalId,
            language = "en",
        }, ct);
        Assert.Equal(HttpStatusCode.Created, joined.StatusCode);
        await BookAsync(laterPlace, later, times[0], laterBooker);
        // The disk reservations hold the bookings too, as the flush leaves them.
        await using (var scope = host.Services.CreateAsyncScope())
        {
            var sync = scope.ServiceProvider.GetRequiredService<IWindowSync>();
            while (await sync.FlushAsync(500, ct) > 0)
            {
            }
        }
        var before = Traces(booker).Concat(Traces(moved)).Concat(Traces(waiter));
        Assert.NotEmpty(await WhereHeldAsync(before));
        var bookingsAtPlace = await _rows!.CountAsync("SELECT COUNT(*) FROM reservations WHERE place_id = @p", ("@p", place));

        // Now at a day's end, the erasure finds nothing due: every appointment is ahead.
        Assert.Equal(0, (await EraseAsync(DateTimeOffset.UtcNow)).Total);
        var erased = await EraseAsync(new DateTimeOffset(soon.AddDays(32).ToDateTime(new TimeOnly(12, 0)), TimeSpan.Zero));

        Assert.True(erased.Reservations > 0 && erased.Outbox > 0 && erased.WaitingList == 1, $"erased {erased}");
        Assert.Empty(await WhereHeldAsync(Traces(booker).Concat(Traces(moved)).Concat(Traces(waiter))));
        Assert.NotEmpty(await WhereHeldAsync([laterBooker.Phone]));
        Assert.NotEmpty(await WhereHeldAsync([laterBooker.Name]));
        Assert.Equal(bookingsAtPlace, await _rows.CountAsync("SELECT COUNT(*) FROM reservations WHERE place_id = @p", ("@p", place)));
        // Run again, it has nothing left to do.
        Assert.Equal(0, (await EraseAsync(new DateTimeOffset(soon.AddDays(32).ToDateTime(new TimeOnly(12, 5)), TimeSpan.Zero))).Total);
    }

    [Fact]
    public async Task Retention_days_out_of_range_refuse_the_start_naming_the_setting()
    {
        var settings = await CreateDatabaseAsync("db");
        await using var host = new SlotsHost(settings, new Dictionary<string, string?> { ["Slots:Retention:Days"] = "0" });

        var refused = Assert.ThrowsAny<Exception>(() => host.Client());

        Assert.Contains("Slots:Retention:Days must be 1..3650", refused.ToString(), StringComparison.Ordinal);
    }
}
