using System.Globalization;
using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Campaign;

/// <summary>
/// Who may book a service, on every backend (issue 41): a service opened by age admits people whose
/// birth number says they were born on or before the cut-off of the steps already open, on hot and
/// disk days alike; everyone else gets 403 not-eligible naming the rule, the reason and, where a
/// later step covers them, the day their group opens. A refusal writes nothing, not even the key.
/// Only admins set the rule; bad input is a problem naming the field.
/// </summary>
public abstract class EligibilityContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private static readonly DateOnly HotDay = Today.AddDays(2);
    private static readonly DateOnly DiskDay = Today.AddDays(40);
    private static int _serial;

    /// <summary>A valid 10-digit Slovak birth number of someone born on the day (men's months; mod-11 check digit).</summary>
    private static string BirthNumber(DateOnly born)
    {
        while (true)
        {
            var serial = Interlocked.Increment(ref _serial) % 1000;
            var first = long.Parse(FormattableString.Invariant($"{born:yyMMdd}{serial:000}"), CultureInfo.InvariantCulture);
            if (first % 11 != 10)
            {
                return FormattableString.Invariant($"{first:000000000}{first % 11}");
            }
        }
    }

    private static Person BornOn(DateOnly born) => People.Next() with { NationalId = BirthNumber(born) };

    private static string Instant(DateTimeOffset at) => at.ToUniversalTime().ToString("yyyy-MM-dd'T'HH:mm:ss'Z'", CultureInfo.InvariantCulture);

    [Fact]
    public async Task An_age_rule_admits_the_old_enough_and_refuses_the_others_naming_the_day_their_group_opens()
    {
        var host = NewHost(await CreateDatabaseAsync("db"));
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 5, HotDay, DiskDay);
        var later = DateTimeOffset.UtcNow.AddDays(10);
        var set = await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new
        {
            rule = "age",
            steps = new[]
            {
                new { opensAt = Instant(DateTimeOffset.UtcNow.AddHours(-1)), bornOnOrBefore = "1960-12-31" },
                new { opensAt = Instant(later), bornOnOrBefore = "1990-12-31" },
            },
        });
        Assert.Equal(HttpStatusCode.OK, set.StatusCode);
        Assert.Equal("age", (await JsonAsync(set))["eligibility"]!["rule"]!.GetValue<string>());

        foreach (var day in new[] { HotDay, DiskDay })
        {
            Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Reserve(place, day, "08:00", BornOn(new DateOnly(1955, 3, 10))))).StatusCode);

            var young = await client.SendAsync(Reserve(place, day, "08:10", BornOn(new DateOnly(1985, 6, 15))));
            Assert.Equal(HttpStatusCode.Forbidden, young.StatusCode);
            var problem = await JsonAsync(young);
            Assert.Equal("not-eligible", problem["code"]!.GetValue<string>());
            Assert.Equal("age", problem["rule"]!.GetValue<string>());
            Assert.Equal("too-young", problem["reason"]!.GetValue<string>());
            Assert.Equal(Day(DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(later, Bratislava).DateTime)), problem["opensOn"]!.GetValue<string>());
            Assert.DoesNotContain("1985", await young.Content.ReadAsStringAsync(), StringComparison.Ordinal);

            var youngest = await JsonAsync(await client.SendAsync(Reserve(place, day, "08:10", BornOn(new DateOnly(2001, 1, 1)))));
            Assert.Equal("too-young", youngest["reason"]!.GetValue<string>());
            Assert.Null(youngest["opensOn"]); // no announced step covers them

            var passport = await JsonAsync(await client.SendAsync(Reserve(place, day, "08:10", People.Next() with { NationalId = "AB1234567" })));
            Assert.Equal("no-birth-date", passport["reason"]!.GetValue<string>());
            Assert.Equal(5, await FreeSeatsAsync(client, place, day, "08:10"));
        }
    }

    [Fact]
    public async Task A_refusal_is_not_remembered_under_its_key_so_the_same_request_books_once_the_service_opens()
    {
        var host = NewHost(await CreateDatabaseAsync("db"));
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 5, HotDay, DiskDay);
        (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new
        {
            rule = "age",
            steps = new[] { new { opensAt = Instant(DateTimeOffset.UtcNow.AddDays(-1)), bornOnOrBefore = "1950-01-01" } },
        })).EnsureSuccessStatusCode();
        var person = BornOn(new DateOnly(1970, 5, 5));
        foreach (var day in new[] { HotDay, DiskDay })
        {
            var key = Guid.NewGuid().ToString();
            Assert.Equal(HttpStatusCode.Forbidden, (await client.SendAsync(Reserve(place, day, "08:20", person, key))).StatusCode);
            Assert.Equal(HttpStatusCode.OK, (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new { rule = "everyone" })).StatusCode);

            var booked = await client.SendAsync(Reserve(place, day, "08:20", person, key));

            Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
            Assert.False(booked.Headers.Contains("Idempotent-Replayed"));
            var code = (await JsonAsync(booked))["code"]!.GetValue<string>();
            Assert.Equal(HttpStatusCode.NoContent, (await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{code}", person.Phone))).StatusCode);
            (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new
            {
                rule = "age",
                steps = new[] { new { opensAt = Instant(DateTimeOffset.UtcNow.AddDays(-1)), bornOnOrBefore = "1950-01-01" } },
            })).EnsureSuccessStatusCode();
        }
    }

    [Fact]
    public async Task Only_admins_set_the_rule_the_list_shows_it_and_bad_input_is_a_problem_naming_the_field()
    {
        var host = NewHost(await CreateDatabaseAsync("db"));
        var admin = host.AdminClient();
        const string Url = "/api/admin/services/default/eligibility";
        var step = new { opensAt = "2026-01-01T08:00:00+01:00", bornOnOrBefore = "1960-12-31" };

        Assert.Equal(HttpStatusCode.Forbidden, (await host.ViewerClient().PutAsJsonAsync(Url, new { rule = "everyone" })).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await host.Client().PutAsJsonAsync(Url, new { rule = "everyone" })).StatusCode);
        await AssertInvalidAsync(await admin.PutAsJsonAsync(Url, new { rule = "nobody" }), "rule");
        await AssertInvalidAsync(await admin.PutAsJsonAsync(Url, new { rule = "age" }), "steps");
        await AssertInvalidAsync(await admin.PutAsJsonAsync(Url, new { rule = "everyone", steps = new[] { step } }), "steps");
        await AssertInvalidAsync(await admin.PutAsJsonAsync(Url, new { rule = "age", steps = new[] { new { opensAt = "2026-01-01T08:00:00", bornOnOrBefore = "1960-12-31" } } }),
            "steps[0].opensAt");
        await AssertInvalidAsync(await admin.PutAsJsonAsync(Url, new { rule = "age", steps = new[] { step, new { step.opensAt, bornOnOrBefore = "3000-01-01" } } }),
            "steps[1].bornOnOrBefore");
        var unknown = await admin.PutAsJsonAsync("/api/admin/services/none-such/eligibility", new { rule = "everyone" });
        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
        Assert.Equal("unknown-service", await ProblemCodeAsync(unknown));

        Assert.Equal(HttpStatusCode.OK, (await admin.PutAsJsonAsync(Url, new { rule = "age", steps = new[] { step } })).StatusCode);
        var listed = await admin.GetFromJsonAsync<JsonArray>("/api/admin/services");
        var who = listed!.Single(s => s!["code"]!.GetValue<string>() == "default")!["eligibility"]!;
        Assert.Equal("age", who["rule"]!.GetValue<string>());
        Assert.Equal("2026-01-01T07:00:00Z", who["steps"]![0]!["opensAt"]!.GetValue<string>());
        Assert.Equal("1960-12-31", who["steps"]![0]!["bornOnOrBefore"]!.GetValue<string>());
    }
}
