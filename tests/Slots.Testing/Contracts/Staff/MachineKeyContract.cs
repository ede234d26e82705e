using System.Net;
using System.Net.Http.Headers;
using System.Net.Http.Json;
using System.Security.Cryptography;
using System.Text;
using System.Text.Json.Nodes;
using Microsoft.Extensions.DependencyInjection;
using Slots.Staff;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Testing.Contracts.Staff;

/// <summary>
/// Machine keys made and revoked by admins through the API (#39), on every backend: shown once,
/// kept as a hash, several working at once, each with a role and an expiry; a revoked or expired key
/// stops within the documented bound on every instance; every create and revoke is in the audit
/// trail under the person who did it.
/// </summary>
public abstract class MachineKeyContract<TBackend>(TBackend backend) : BackendContract<TBackend>(backend)
    where TBackend : class, IBackend
{
    private readonly StaffTokens _tokens = new();

    private async Task<IReadOnlyDictionary<string, string?>> DatabaseAsync() =>
        await CreateDatabaseAsync("mk");

    private SlotsHost Host(IReadOnlyDictionary<string, string?> database, string refresh = "00:00:05") =>
        new(database, new Dictionary<string, string?>(_tokens.Settings) { ["Slots:Admin:KeyRefresh"] = refresh });

    private HttpClient Person(SlotsHost host, string subject, string role = "admin")
    {
        var client = host.Client();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", _tokens.For(subject, role));
        return client;
    }

    private static HttpClient Machine(SlotsHost host, string key)
    {
        var client = host.Client();
        client.DefaultRequestHeaders.Add("X-Api-Key", key);
        return client;
    }

    private static async Task<JsonObject> CreateAsync(HttpClient admin, string name, string role, TimeSpan? life = null)
    {
        var created = await admin.PostAsJsonAsync("/api/admin/keys",
            new { name, role, expiresAt = DateTimeOffset.UtcNow + (life ?? TimeSpan.FromDays(30)) });
        Assert.Equal(HttpStatusCode.Created, created.StatusCode);
        return await JsonAsync(created);
    }

    [Fact]
    public async Task A_key_made_by_an_admin_works_at_once_is_listed_without_its_secret_and_stops_when_revoked()
    {
        await using var host = Host(await DatabaseAsync());
        var alice = Person(host, "alice");
        var made = await CreateAsync(alice, "dashboard", "viewer");
        var secret = made["key"]!.GetValue<string>();
        var id = made["id"]!.GetValue<long>();
        var dashboard = Machine(host, secret);

        var stats = await dashboard.GetAsync("/api/admin/stats");
        var write = await dashboard.PostAsJsonAsync("/api/admin/places", new { name = "X", address = "Y", region = "Z", timeZone = "Europe/Bratislava" });
        using var scrape = new HttpRequestMessage(HttpMethod.Get, "/metrics") { Headers = { { "X-Forwarded-For", "203.0.113.9" } } };
        var metrics = await dashboard.SendAsync(scrape);
        var listed = await alice.GetStringAsync("/api/admin/keys");
        var revoked = await alice.DeleteAsync($"/api/admin/keys/{id}");
        var after = await dashboard.GetAsync("/api/admin/stats");
        using var scrapeAfter = new HttpRequestMessage(HttpMethod.Get, "/metrics") { Headers = { { "X-Forwarded-For", "203.0.113.9" } } };
        var metricsAfter = await dashboard.SendAsync(scrapeAfter);
        var again = await alice.DeleteAsync($"/api/admin/keys/{id}");
        var list = JsonNode.Parse(await alice.GetStringAsync("/api/admin/keys"))!.AsArray();

        Assert.StartsWith("slots_", secret, StringComparison.Ordinal);
        Assert.True(secret.Length >= 40, "256 random bits");
        Assert.Equal(("dashboard", "viewer", "alice"), (made["name"]!.GetValue<string>(), made["role"]!.GetValue<string>(), made["createdBy"]!.GetValue<string>()));
        Assert.Equal(HttpStatusCode.OK, stats.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, write.StatusCode);
        Assert.Equal(HttpStatusCode.OK, metrics.StatusCode);
        // The list never carries the key, nor its hash.
        Assert.DoesNotContain(secret, listed, StringComparison.Ordinal);
        Assert.DoesNotContain(Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(secret))), listed, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("\"active\"", listed, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.NoContent, revoked.StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, after.StatusCode);
        Assert.Equal("unauthenticated", await ProblemCodeAsync(after));
        Assert.Equal(HttpStatusCode.Unauthorized, metricsAfter.StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, again.StatusCode);
        var row = Assert.Single(list)!;
        Assert.Equal(("revoked", "alice"), (row["state"]!.GetValue<string>(), row["revokedBy"]!.GetValue<string>()));
        Assert.Null(row["key"]);
        // One entry per change, under the person: the second revoke changed nothing.
        using var scope = host.Services.CreateScope();
        var trail = await scope.ServiceProvider.GetRequiredService<StaffService>()
            .AuditAsync(null, DateTimeOffset.UtcNow.AddHours(-1), DateTimeOffset.UtcNow.AddHours(1), 100, TestContext.Current.CancellationToken);
        var keyEntries = trail.Where(e => e.Action.StartsWith("machine-key-", StringComparison.Ordinal)).OrderBy(e => e.Id).ToList();
        Assert.Equal([(AuditActions.MachineKeyCreated, "alice"), (AuditActions.MachineKeyRevoked, "alice")], keyEntries.Select(e => (e.Action, e.Actor)));
        Assert.All(keyEntries, e => Assert.Contains($"key {id}", e.Target, StringComparison.Ordinal));
        Assert.DoesNotContain(trail, e => (e.Target ?? "").Contains(secret, StringComparison.Ordinal));
    }

    [Fact]
    public async Task Two_keys_work_at_once_so_a_script_rotates_without_a_gap_and_an_admin_key_acts_under_its_name()
    {
        await using var host = Host(await DatabaseAsync());
        var alice = Person(host, "alice");
        var old = await CreateAsync(alice, "nightly", "admin");
        var next = await CreateAsync(alice, "nightly", "admin");
        var (oldKey, nextKey) = (Machine(host, old["key"]!.GetValue<string>()), Machine(host, next["key"]!.GetValue<string>()));

        Assert.Equal(HttpStatusCode.OK, (await oldKey.GetAsync("/api/admin/jobs")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await nextKey.GetAsync("/api/admin/jobs")).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await alice.DeleteAsync($"/api/admin/keys/{old["id"]}")).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await oldKey.GetAsync("/api/admin/jobs")).StatusCode);
        var place = await nextKey.PostAsJsonAsync("/api/admin/places",
            new { name = "Rotated", address = "Hlavná 1", region = "Bratislavský kraj", timeZone = "Europe/Bratislava" });
        Assert.Equal(HttpStatusCode.Created, place.StatusCode);
        var placeId = (await JsonAsync(place))["id"]!.GetValue<int>();
        var trail = JsonNode.Parse(await alice.GetStringAsync($"/api/staff/places/{placeId}/audit"))!.AsArray();
        Assert.Equal($"nightly (key {next["id"]})", Assert.Single(trail)!["actor"]!.GetValue<string>());
    }

    [Fact]
    public async Task A_key_revoked_on_one_instance_stops_on_another_within_the_refresh_bound_and_an_expired_key_stops_at_its_expiry()
    {
        var database = await DatabaseAsync();
        await using var first = Host(database);
        await using var second = Host(database, refresh: "00:00:02");
        var alice = Person(first, "alice");
        second.Client().Dispose(); // started before the brief key's few seconds begin
        var made = await CreateAsync(alice, "elsewhere", "viewer");
        var brief = await CreateAsync(alice, "brief", "viewer", TimeSpan.FromSeconds(5));
        var there = Machine(second, made["key"]!.GetValue<string>());
        var briefThere = Machine(second, brief["key"]!.GetValue<string>());
        var expiresAt = brief["expiresAt"]!.GetValue<DateTimeOffset>();

        Assert.Equal(HttpStatusCode.OK, (await there.GetAsync("/api/admin/jobs")).StatusCode);
        Assert.Equal(HttpStatusCode.OK, (await briefThere.GetAsync("/api/admin/jobs")).StatusCode);
        Assert.Equal(HttpStatusCode.NoContent, (await alice.DeleteAsync($"/api/admin/keys/{made["id"]}")).StatusCode);
        var revokedAt = DateTimeOffset.UtcNow;
        await Task.Delay(TimeSpan.FromSeconds(2.5), TestContext.Current.CancellationToken);
        Assert.Equal(HttpStatusCode.Unauthorized, (await there.GetAsync("/api/admin/jobs")).StatusCode);
        Assert.True(DateTimeOffset.UtcNow - revokedAt < TimeSpan.FromSeconds(10), "the check ran soon after the bound");
        var wait = expiresAt - DateTimeOffset.UtcNow + TimeSpan.FromSeconds(0.5);
        if (wait > TimeSpan.Zero)
        {
            await Task.Delay(wait, TestContext.Current.CancellationToken);
        }
        Assert.Equal(HttpStatusCode.Unauthorized, (await briefThere.GetAsync("/api/admin/jobs")).StatusCode);
        var list = JsonNode.Parse(await alice.GetStringAsync("/api/admin/keys"))!.AsArray();
        Assert.Equal(["expired", "revoked"], list.Select(k => k!["state"]!.GetValue<string>()));
    }

    [Theory]
    [MemberData(nameof(MachineKeyCases.BadKeys), MemberType = typeof(MachineKeyCases))]
    public async Task A_key_asked_for_wrongly_gets_a_400_naming_the_field_and_nothing_is_made(string body, string field)
    {
        await using var host = Host(await DatabaseAsync());
        var alice = Person(host, "alice");

        var answer = await alice.PostAsync("/api/admin/keys", new StringContent(body, Encoding.UTF8, "application/json"));

        await AssertInvalidAsync(answer, field);
        Assert.Empty(JsonNode.Parse(await alice.GetStringAsync("/api/admin/keys"))!.AsArray());
    }

    [Fact]
    public async Task Only_admins_make_list_or_revoke_keys_and_an_unknown_key_id_is_a_404_problem()
    {
        await using var host = Host(await DatabaseAsync());
        var body = new { name = "x", role = "admin", expiresAt = DateTimeOffset.UtcNow.AddDays(1) };

        var viewer = await Person(host, "vera", "viewer").PostAsJsonAsync("/api/admin/keys", body);
        var viewerKey = await host.ViewerClient().GetAsync("/api/admin/keys");
        var manager = await Person(host, "mia", "site-manager").DeleteAsync("/api/admin/keys/1");
        var nobody = await host.Client().GetAsync("/api/admin/keys");
        var unknown = await Person(host, "alice").DeleteAsync("/api/admin/keys/424242");
        var malformed = await Person(host, "alice").DeleteAsync("/api/admin/keys/x1");

        Assert.Equal((HttpStatusCode.Forbidden, HttpStatusCode.Forbidden, HttpStatusCode.Forbidden, HttpStatusCode.Unauthorized),
            (viewer.StatusCode, viewerKey.StatusCode, manager.StatusCode, nobody.StatusCode));
        Assert.Equal(HttpStatusCode.NotFound, unknown.StatusCode);
        Assert.Equal("machine-key-not-found", await ProblemCodeAsync(unknown));
        await AssertInvalidAsync(malformed, "id");
    }

    [Fact]
    public async Task A_configured_key_given_as_its_hash_works_and_a_wrong_one_does_not()
    {
        const string key = "hashed-bootstrap-key-0123456789";
        var hash = Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(key)));
        await using var host = new SlotsHost(await DatabaseAsync(), new Dictionary<string, string?>
        {
            ["Slots:Admin:Keys:bootstrap:Hash"] = hash.ToUpperInvariant(),
            ["Slots:Admin:Keys:bootstrap:Role"] = "admin",
        });

        Assert.Equal(HttpStatusCode.OK, (await Machine(host, key).GetAsync("/api/admin/keys")).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await Machine(host, hash).GetAsync("/api/admin/keys")).StatusCode);
        Assert.Equal(HttpStatusCode.Unauthorized, (await Machine(host, key + "x").GetAsync("/api/admin/keys")).StatusCode);
    }
}

/// <summary>Requests for a key that each get a 400 naming one field.</summary>
public static class MachineKeyCases
{
    public static TheoryData<string, string> BadKeys() => new()
    {
        { """{"name":"","role":"viewer","expiresAt":"2099-01-01T00:00:00Z"}""", "name" },
        { """{"name":"   ","role":"viewer","expiresAt":"2099-01-01T00:00:00Z"}""", "name" },
        { $$"""{"name":"{{new string('k', 101)}}","role":"viewer","expiresAt":"2099-01-01T00:00:00Z"}""", "name" },
        { """{"name":"ci","role":"root","expiresAt":"2099-01-01T00:00:00Z"}""", "role" },
        { """{"name":"ci","expiresAt":"2099-01-01T00:00:00Z"}""", "role" },
        { """{"name":"ci","role":"admin","expiresAt":"2020-01-01T00:00:00Z"}""", "expiresAt" },
        { """{"name":"ci","role":"admin","expiresAt":"2099-01-01T00:00:00Z"}""", "expiresAt" },
        { """{"name":"ci","role":"admin"}""", "expiresAt" },
    };
}
