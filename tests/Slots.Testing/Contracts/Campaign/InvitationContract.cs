using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Campaign;

/// <summary>
/// Invitation codes, on every backend that spends them in the seat's transaction (issue 41): an admin
/// issues a batch once as CSV; a code admits to an invitation-only service (or to an age-ruled one
/// that accepts codes, where the age rule alone would refuse); the booking it admits spends it and
/// binds it to its person, so two people with one code get one booking between them, the same person
/// may book again after a cancel, and a revoked batch admits nobody. Hot and disk days alike.
/// </summary>
public abstract class InvitationContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private static readonly DateOnly HotDay = Today.AddDays(2);
    private static readonly DateOnly DiskDay = Today.AddDays(40);

    private static HttpRequestMessage Book(int place, DateOnly day, string time, Person person, string? invitation, string? key = null) =>
        new(HttpMethod.Post, "/api/reservations")
        {
            Headers = { { "Idempotency-Key", key ?? Guid.NewGuid().ToString() } },
            Content = JsonContent.Create(new
            {
                placeId = place,
                day = Day(day),
                time,
                name = person.Name,
                phone = person.Phone,
                nationalId = person.NationalId,
                invitation,
            }),
        };

    private static async Task<(HttpResponseMessage Response, IReadOnlyList<string> Codes)> IssueAsync(HttpClient admin, int size, string label = "Teachers")
    {
        var issued = await admin.PostAsJsonAsync("/api/admin/services/default/invitations", new { label, size });
        if (issued.StatusCode != HttpStatusCode.Created)
        {
            return (issued, []);
        }
        var lines = (await issued.Content.ReadAsStringAsync()).TrimStart('\uFEFF').Split("\r\n", StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal("code,service,batch,label", lines[0]);
        return (issued, lines.Skip(1).Select(l => l.Split(',')[0]).ToList());
    }

    private static async Task<JsonObject> BatchAsync(HttpClient client) =>
        (await client.GetFromJsonAsync<JsonArray>("/api/admin/invitations?service=default"))!.Single()!.AsObject();

    private static async Task AssertRefusedAsync(HttpResponseMessage response, string reason)
    {
        Assert.Equal(HttpStatusCode.Forbidden, response.StatusCode);
        var problem = await JsonAsync(response);
        Assert.Equal("not-eligible", problem["code"]!.GetValue<string>());
        Assert.Equal("invitation", problem["rule"]!.GetValue<string>());
        Assert.Equal(reason, problem["reason"]!.GetValue<string>());
    }

    [Fact]
    public async Task A_code_admits_to_an_invitation_only_service_and_stays_with_the_person_it_admitted()
    {
        var host = NewHost(await CreateDatabaseAsync("db"));
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 5, HotDay, DiskDay);
        Assert.Equal(HttpStatusCode.OK, (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new { rule = "invitation" })).StatusCode);
        var (issued, codes) = await IssueAsync(admin, 3);
        Assert.Equal(HttpStatusCode.Created, issued.StatusCode);
        Assert.Equal("text/csv", issued.Content.Headers.ContentType!.MediaType);
        Assert.Equal(3, codes.Distinct().Count());
        Assert.All(codes, c => Assert.Matches("^[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}-[0-9A-HJKMNP-TV-Z]{4}$", c));
        var place1 = await client.GetFromJsonAsync<JsonObject>($"/api/places/{place}");
        Assert.Equal("required", place1!["services"]![0]!["invitation"]!.GetValue<string>());

        var i = 0;
        foreach (var day in new[] { HotDay, DiskDay })
        {
            var code = codes[i++];
            var owner = People.Next();
            await AssertRefusedAsync(await client.SendAsync(Book(place, day, "08:00", owner, null)), "invitation-required");
            await AssertRefusedAsync(await client.SendAsync(Book(place, day, "08:00", owner, "ZZZZ-ZZZZ-ZZZZ")), "invitation-unknown");

            var booked = await client.SendAsync(Book(place, day, "08:00", owner, code));
            Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
            var other = People.Next();
            await AssertRefusedAsync(await client.SendAsync(Book(place, day, "08:10", other, code)), "invitation-used");
            Assert.Equal(5, await FreeSeatsAsync(client, place, day, "08:10")); // the refusal wrote nothing

            // After a cancel the code is still the same person's: typed another way, it books again.
            var first = (await JsonAsync(booked))["code"]!.GetValue<string>();
            Assert.Equal(HttpStatusCode.NoContent, (await client.SendAsync(WithPhone(HttpMethod.Delete, $"/api/reservations/{first}", owner.Phone))).StatusCode);
            var again = await client.SendAsync(Book(place, day, "08:20", owner, code.Replace("-", "", StringComparison.Ordinal).ToLowerInvariant()));
            Assert.Equal(HttpStatusCode.Created, again.StatusCode);
            await AssertRefusedAsync(await client.SendAsync(Book(place, day, "08:10", other, code)), "invitation-used");
        }
        var batch = await BatchAsync(host.ViewerClient());
        Assert.Equal(3, batch["size"]!.GetValue<int>());
        Assert.Equal(2, batch["spent"]!.GetValue<int>());
        Assert.Equal("Teachers", batch["label"]!.GetValue<string>());
        Assert.Null(batch["revokedAt"]);
    }

    [Fact]
    public async Task Erasing_the_person_s_data_leaves_their_code_spent_and_bound_to_no_one()
    {
        var host = NewHost(await CreateDatabaseAsync("db"));
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 5, HotDay, DiskDay);
        (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new { rule = "invitation" })).EnsureSuccessStatusCode();
        var (_, codes) = await IssueAsync(admin, 1);
        var owner = People.Next();
        var booked = await client.SendAsync(Book(place, HotDay, "08:00", owner, codes[0]));
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        var code = (await JsonAsync(booked))["code"]!.GetValue<string>();

        var erased = await client.SendAsync(WithNationalId(HttpMethod.Delete, $"/api/reservations/{code}/personal-data", owner.NationalId));

        Assert.Equal(HttpStatusCode.NoContent, erased.StatusCode);
        await AssertRefusedAsync(await client.SendAsync(Book(place, DiskDay, "08:00", owner, codes[0])), "invitation-used");
        await AssertRefusedAsync(await client.SendAsync(Book(place, DiskDay, "08:00", People.Next(), codes[0])), "invitation-used");
        Assert.Equal(1, (await BatchAsync(admin))["spent"]!.GetValue<int>());
    }

    [Fact]
    public async Task Two_people_racing_with_one_code_get_one_booking_between_them()
    {
        var host = NewHost(await CreateDatabaseAsync("db"));
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 20, HotDay, DiskDay);
        (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new { rule = "invitation" })).EnsureSuccessStatusCode();
        var (_, codes) = await IssueAsync(admin, 2);

        var i = 0;
        foreach (var day in new[] { HotDay, DiskDay })
        {
            var code = codes[i++];
            var answers = await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => client.SendAsync(Book(place, day, "08:30", People.Next(), code))));

            Assert.Single(answers, a => a.StatusCode == HttpStatusCode.Created);
            foreach (var refused in answers.Where(a => a.StatusCode != HttpStatusCode.Created))
            {
                await AssertRefusedAsync(refused, "invitation-used");
            }
            Assert.Equal(19, await FreeSeatsAsync(client, place, day, "08:30"));
        }
        Assert.Equal(2, (await BatchAsync(admin))["spent"]!.GetValue<int>());
    }

    [Fact]
    public async Task A_revoked_batch_admits_nobody_and_the_bookings_it_made_stand()
    {
        var host = NewHost(await CreateDatabaseAsync("db"));
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 5, HotDay, DiskDay);
        (await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new { rule = "invitation" })).EnsureSuccessStatusCode();
        var (_, codes) = await IssueAsync(admin, 3);
        var owner = People.Next();
        var booked = await client.SendAsync(Book(place, HotDay, "08:00", owner, codes[0]));
        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        var id = (await BatchAsync(admin))["id"]!.GetValue<int>();

        Assert.Equal(HttpStatusCode.Forbidden, (await host.ViewerClient().PostAsync($"/api/admin/invitations/{id}/revoke", null)).StatusCode);
        var revoked = await admin.PostAsync($"/api/admin/invitations/{id}/revoke", null);
        Assert.Equal(HttpStatusCode.OK, revoked.StatusCode);
        Assert.NotNull((await JsonAsync(revoked))["revokedAt"]);

        foreach (var day in new[] { HotDay, DiskDay })
        {
            await AssertRefusedAsync(await client.SendAsync(Book(place, day, "08:10", People.Next(), codes[1])), "invitation-revoked");
        }
        await AssertRefusedAsync(await client.SendAsync(Book(place, DiskDay, "08:10", owner, codes[0])), "invitation-revoked");
        var code = (await JsonAsync(booked))["code"]!.GetValue<string>();
        Assert.Equal(HttpStatusCode.OK, (await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", owner.Phone))).StatusCode);

        var unknown = await admin.PostAsync("/api/admin/invitations/999999/revoke", null);
        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
        Assert.Equal("invitation-batch-not-found", await ProblemCodeAsync(unknown));
    }

    [Fact]
    public async Task Where_the_age_rule_accepts_codes_a_code_is_spent_only_by_a_person_it_admits()
    {
        var host = NewHost(await CreateDatabaseAsync("db"));
        var admin = host.AdminClient();
        var client = host.Client();
        var place = await CreatePlaceWithHotAndDiskDaysAsync(admin, capacity: 5, HotDay, DiskDay);
        var set = await admin.PutAsJsonAsync("/api/admin/services/default/eligibility", new
        {
            rule = "age",
            acceptsInvitations = true,
            steps = new[] { new { opensAt = "2020-01-01T00:00:00Z", bornOnOrBefore = "1960-12-31" } },
        });
        Assert.Equal(HttpStatusCode.OK, set.StatusCode);
        Assert.True((await JsonAsync(set))["eligibility"]!["acceptsInvitations"]!.GetValue<bool>());
        var (_, codes) = await IssueAsync(admin, 1);

        // Old enough: admitted by age, the code stays unspent.
        var old = People.Next() with { NationalId = "5503100020" };
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Book(place, HotDay, "08:00", old, codes[0]))).StatusCode);
        Assert.Equal(0, (await BatchAsync(admin))["spent"]!.GetValue<int>());

        // Too young: the code admits them, and is theirs from then on.
        var young = People.Next() with { NationalId = "8506150026" };
        Assert.Equal(HttpStatusCode.Created, (await client.SendAsync(Book(place, DiskDay, "08:00", young, codes[0]))).StatusCode);
        Assert.Equal(1, (await BatchAsync(admin))["spent"]!.GetValue<int>());
        var other = People.Next() with { NationalId = "9001010040" };
        await AssertRefusedAsync(await client.SendAsync(Book(place, HotDay, "08:10", other, codes[0])), "invitation-used");
        var plain = await client.SendAsync(Book(place, HotDay, "08:10", other, null));
        Assert.Equal("too-young", (await JsonAsync(plain))["reason"]!.GetValue<string>());
    }

    [Fact]
    public async Task Only_admins_issue_codes_with_a_key_and_bad_input_is_a_problem_naming_the_field()
    {
        var host = NewHost(await CreateDatabaseAsync("db"));
        var admin = host.AdminClient();
        const string Url = "/api/admin/services/default/invitations";
        Assert.Equal(HttpStatusCode.Forbidden, (await host.ViewerClient().PostAsJsonAsync(Url, new { label = "x", size = 1 })).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await host.Client().PostAsJsonAsync(Url, new { label = "x", size = 1 })).StatusCode);
        await AssertInvalidAsync(await admin.PostAsJsonAsync(Url, new { size = 1 }), "label");
        await AssertInvalidAsync(await admin.PostAsJsonAsync(Url, new { label = "x", size = 0 }), "size");
        await AssertInvalidAsync(await admin.PostAsJsonAsync(Url, new { label = "x", size = 100_001 }), "size");
        var unknown = await admin.PostAsJsonAsync("/api/admin/services/none-such/invitations", new { label = "x", size = 1 });
        Assert.Equal("unknown-service", await ProblemCodeAsync(unknown));
        await AssertInvalidAsync(await admin.PutAsJsonAsync("/api/admin/services/default/eligibility",
            new { rule = "everyone", acceptsInvitations = true }), "acceptsInvitations");
        var place = await CreatePlaceWithSlotsAsync(admin, 5, HotDay);
        await AssertInvalidAsync(await host.Client().SendAsync(Book(place, HotDay, "08:00", People.Next(), "ABCD-EFGH-JKU1")), "invitation");
        Assert.Empty((await admin.GetFromJsonAsync<JsonArray>("/api/admin/invitations"))!);

        // Without the campaign's key, no code can be issued, and no service can be set to take codes.
        var keyless = NewHost(await CreateDatabaseAsync("keyless"), new Dictionary<string, string?> { ["Slots:Invitations:HmacSecret"] = "" });
        var off = await keyless.AdminClient().PostAsJsonAsync(Url, new { label = "x", size = 1 });
        Assert.Equal(HttpStatusCode.Conflict, off.StatusCode);
        Assert.Equal("invitations-off", await ProblemCodeAsync(off));
        await AssertInvalidAsync(await keyless.AdminClient().PutAsJsonAsync("/api/admin/services/default/eligibility", new { rule = "invitation" }), "rule");
    }
}
