using System.Net;
using System.Net.Http.Json;
using Microsoft.Extensions.DependencyInjection;
using Slots.Persons;
using Slots.Retention;
using Slots.Sms;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Retention;

/// <summary>
/// A person's own access and erasure, on every backend: with the booking's code and proof they see
/// what is kept about them; erasing cancels the booking still ahead through the normal cancel (the
/// seat comes back, one cancel SMS is queued) and leaves no text column of any table holding their
/// name, phone or hash once that SMS has been sent.
/// </summary>
public abstract class ErasureContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private const string CancelledKind = "2";

    private SlotsHost? _host;
    private Rows? _rows;
    private PersonalDataScan? _scan;

    private async Task<SlotsHost> StartAsync()
    {
        var settings = await CreateDatabaseAsync("db");
        _rows = new Rows(settings);
        _scan = new PersonalDataScan(_rows, settings["Slots:Storage:Provider"] ?? "Sqlite");
        _host = NewHost(settings, new Dictionary<string, string?> { ["Slots:Retention:Every"] = "01:00:00" });
        return _host;
    }

    private static Person Unique()
    {
        var letters = new string(Enumerable.Range(0, 8).Select(_ => (char)('a' + Random.Shared.Next(26))).ToArray());
        return People.Next() with { Name = "Osoba E" + letters };
    }

    private string[] Traces(Person person)
    {
        var identity = _host!.Services.GetRequiredService<PersonIdentity>();
        return [person.Name, person.Phone, identity.Hash(PersonIdentity.NormalizeNationalId(person.NationalId)!)];
    }

    [Fact]
    public async Task A_person_sees_their_data_then_erasing_it_cancels_the_booking_ahead_once_and_leaves_no_trace()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: day);
        var person = Unique();
        var booked = await host.Client().SendAsync(Reserve(place, day, "08:00", person), ct);
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        var code = (await JsonAsync(booked))["code"]!.GetValue<string>();
        var url = $"/api/reservations/{code}/personal-data";

        var seen = await host.Client().SendAsync(WithPhone(HttpMethod.Get, url, person.Phone), ct);

        Assert.Equal(HttpStatusCode.OK, seen.StatusCode);
        Assert.Contains("no-store", seen.Headers.CacheControl?.ToString() ?? "", StringComparison.Ordinal);
        var data = await JsonAsync(seen);
        var booking = Assert.Single(data["bookings"]!.AsArray())!;
        Assert.Equal(code, booking["code"]!.GetValue<string>());
        Assert.Equal(person.Name, booking["name"]!.GetValue<string>());
        Assert.Equal("booked", booking["state"]!.GetValue<string>());
        Assert.Contains(data["sms"]!.AsArray(), s => s!["text"]!.GetValue<string>().Contains(code, StringComparison.Ordinal));
        Assert.NotEmpty(await _scan!.WhereHeldAsync(Traces(person)));

        var erased = await host.Client().SendAsync(WithNationalId(HttpMethod.Delete, url, person.NationalId), ct);

        Assert.Equal(HttpStatusCode.NoContent, erased.StatusCode);
        // The seat came back: another person takes it.
        Assert.Equal(HttpStatusCode.Created, (await host.Client().SendAsync(Reserve(place, day, "08:00", Unique()), ct)).StatusCode);
        Assert.Equal(1L, await _rows!.CountAsync($"SELECT COUNT(*) FROM outbox WHERE code = @c AND kind = {CancelledKind}", ("@c", code)));
        // The code and proof find nothing any more, and a repeat changes nothing.
        Assert.Equal(HttpStatusCode.NotFound, (await host.Client().SendAsync(WithPhone(HttpMethod.Get, url, person.Phone), ct)).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await host.Client().SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone), ct)).StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, (await host.Client().SendAsync(WithNationalId(HttpMethod.Delete, url, person.NationalId), ct)).StatusCode);
        Assert.Equal(1L, await _rows.CountAsync($"SELECT COUNT(*) FROM outbox WHERE code = @c AND kind = {CancelledKind}", ("@c", code)));
        // Only an SMS not yet sent may still hold the phone it goes to.
        Assert.All(await _scan.WhereHeldAsync(Traces(person)), hit => Assert.Equal("outbox.phone", hit));

        // The SMS are sent; the retention job's next run blanks the phone they went to.
        var unsent = await _rows.QueryAsync("SELECT id FROM outbox WHERE code = @c AND sent_at IS NULL", r => r.GetInt64(0), ("@c", code));
        if (unsent.Count > 0)
        {
            await host.Services.GetRequiredService<ISmsStore>().MarkSentAsync(unsent, DateTimeOffset.UtcNow.ToUnixTimeSeconds(), ct);
        }
        await using (var scope = host.Services.CreateAsyncScope())
        {
            await scope.ServiceProvider.GetRequiredService<PersonalDataRetention>().EraseDueAsync(DateTimeOffset.UtcNow, ct);
        }
        Assert.Empty(await _scan.WhereHeldAsync(Traces(person)));
        Assert.Equal(1L, await _rows.CountAsync($"SELECT COUNT(*) FROM outbox WHERE code = @c AND kind = {CancelledKind}", ("@c", code)));
    }

    [Fact]
    public async Task A_cancelled_bookings_code_finds_the_person_and_erasing_takes_them_off_a_waiting_list_too()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(3);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: day);
        var full = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: day);
        var person = Unique();
        var code = (await JsonAsync(await host.Client().SendAsync(Reserve(place, day, "08:00", person), ct)))["code"]!.GetValue<string>();
        Assert.Equal(HttpStatusCode.NoContent, (await host.Client().SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone), ct)).StatusCode);
        foreach (var time in new[] { "08:00", "08:10", "08:20", "08:30", "08:40", "08:50" })
        {
            Assert.Equal(HttpStatusCode.Created, (await host.Client().SendAsync(Reserve(full, day, time, Unique()), ct)).StatusCode);
        }
        var joined = await host.Client().PostAsJsonAsync("/api/waiting-list", new
        {
            placeId = full,
            from = Day(day),
            to = Day(day),
            name = person.Name,
            phone = person.Phone,
            nationalId = person.NationalId,
            language = "en",
        }, ct);
        Assert.Equal(HttpStatusCode.Created, joined.StatusCode);
        var url = $"/api/reservations/{code}/personal-data";

        var data = await JsonAsync(await host.Client().SendAsync(WithPhone(HttpMethod.Get, url, person.Phone), ct));

        Assert.Equal("cancelled", Assert.Single(data["bookings"]!.AsArray())!["state"]!.GetValue<string>());
        var entry = Assert.Single(data["waitingList"]!.AsArray())!;
        Assert.Equal(("waiting", person.Name), (entry["state"]!.GetValue<string>(), entry["name"]!.GetValue<string>()));

        Assert.Equal(HttpStatusCode.NoContent, (await host.Client().SendAsync(WithPhone(HttpMethod.Delete, url, person.Phone), ct)).StatusCode);

        // The entry left the line (state 4) and stays as a row for the counts; the cancel was not sent twice.
        Assert.Equal([4L], await _rows!.QueryAsync("SELECT state FROM waitlist WHERE place_id = @p", r => Convert.ToInt64(r.GetValue(0)), ("@p", full)));
        Assert.Equal(1L, await _rows.CountAsync($"SELECT COUNT(*) FROM outbox WHERE code = @c AND kind = {CancelledKind}", ("@c", code)));
        var unsent = await _rows.QueryAsync("SELECT id FROM outbox WHERE code = @c AND sent_at IS NULL", r => r.GetInt64(0), ("@c", code));
        if (unsent.Count > 0)
        {
            await host.Services.GetRequiredService<ISmsStore>().MarkSentAsync(unsent, DateTimeOffset.UtcNow.ToUnixTimeSeconds(), ct);
        }
        await using (var scope = host.Services.CreateAsyncScope())
        {
            await scope.ServiceProvider.GetRequiredService<PersonalDataRetention>().EraseDueAsync(DateTimeOffset.UtcNow, ct);
        }
        Assert.Empty(await _scan!.WhereHeldAsync(Traces(person)));
    }

    [Fact]
    public async Task Without_a_proof_the_personal_data_answers_a_problem_naming_the_header_and_a_wrong_one_404()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: day);
        var person = Unique();
        var booked = await host.Client().SendAsync(Reserve(place, day, "08:00", person), ct);
        var code = (await JsonAsync(booked))["code"]!.GetValue<string>();
        var url = $"/api/reservations/{code}/personal-data";

        await AssertInvalidAsync(await host.Client().SendAsync(new HttpRequestMessage(HttpMethod.Delete, url), ct), "Slots-Phone");
        await AssertInvalidAsync(await host.Client().SendAsync(WithNationalId(HttpMethod.Get, url, "!"), ct), "Slots-National-Id");
        var wrong = await host.Client().SendAsync(WithPhone(HttpMethod.Delete, url, "+421 905 000 001"), ct);

        Assert.Equal(HttpStatusCode.NotFound, wrong.StatusCode);
        Assert.Equal("reservation-not-found", await ProblemCodeAsync(wrong));
        // The wrong proof erased nothing: the booking stands.
        Assert.Equal(HttpStatusCode.OK, (await host.Client().SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone), ct)).StatusCode);
    }

    [Fact]
    public async Task The_per_code_guessing_limit_closes_the_personal_data_of_a_code_after_wrong_proofs()
    {
        var host = await StartAsync();
        var ct = TestContext.Current.CancellationToken;
        var day = Today.AddDays(2);
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1, day: day);
        var person = Unique();
        var code = (await JsonAsync(await host.Client().SendAsync(Reserve(place, day, "08:00", person), ct)))["code"]!.GetValue<string>();
        var url = $"/api/reservations/{code}/personal-data";
        for (var i = 0; i < 5; i++)
        {
            Assert.Equal(HttpStatusCode.NotFound, (await host.Client().SendAsync(WithPhone(HttpMethod.Get, url, $"+421 905 000 10{i}"), ct)).StatusCode);
        }

        var right = await host.Client().SendAsync(WithPhone(HttpMethod.Delete, url, person.Phone), ct);

        Assert.Equal(HttpStatusCode.TooManyRequests, right.StatusCode);
        Assert.Equal("wrong-proof-limit", await ProblemCodeAsync(right));
        Assert.NotNull(right.Headers.RetryAfter);
        Assert.NotEmpty(await _scan!.WhereHeldAsync([person.Phone]));
    }
}
