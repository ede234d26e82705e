using System.Net;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Security;

/// <summary>What answers tell strangers (#39): no copies of personal data, no Server banner, CORS only for named origins.</summary>
public sealed class HeadersTests : IAsyncDisposable
{
    private const string Allowed = "https://booking.example.org";
    private readonly SqliteBackend _backend = new();

    [Fact]
    public async Task Answers_carrying_personal_data_are_no_store_and_no_answer_names_the_server()
    {
        var settings = (await _backend.CreateDatabaseAsync("headers", TestContext.Current.CancellationToken))!;
        await using var host = new SlotsHost(settings);
        var (client, admin) = (host.Client(), host.AdminClient());
        var place = await CreatePlaceWithSlotsAsync(admin, capacity: 1);
        var person = People.Next();

        var booked = await client.SendAsync(Reserve(place, Today.AddDays(2), "08:10", person));
        var code = (await JsonAsync(booked))["code"]!.GetValue<string>();
        var found = await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", person.Phone));
        var wrong = await client.SendAsync(WithPhone(HttpMethod.Get, $"/api/reservations/{code}", "+420601000001"));
        var availability = await client.GetAsync($"/api/places/{place}/availability?from={Day(Today.AddDays(2))}&to={Day(Today.AddDays(2))}");

        Assert.Equal(HttpStatusCode.Created, booked.StatusCode);
        Assert.Equal(HttpStatusCode.OK, found.StatusCode);
        Assert.Equal(HttpStatusCode.NotFound, wrong.StatusCode);
        Assert.All(new[] { booked, found, wrong }, answer => Assert.True(answer.Headers.CacheControl?.NoStore, "Cache-Control: no-store"));
        // Availability holds no personal data: HAProxy and browsers may still keep it a second.
        Assert.True(availability.Headers.CacheControl!.Public);
        Assert.All(new[] { booked, found, wrong, availability }, answer => Assert.Empty(answer.Headers.Server));
    }

    [Fact]
    public async Task Cross_origin_calls_are_allowed_only_from_configured_origins()
    {
        var ct = TestContext.Current.CancellationToken;
        await using var closed = new SlotsHost((await _backend.CreateDatabaseAsync("cors-closed", ct))!);
        await using var open = new SlotsHost((await _backend.CreateDatabaseAsync("cors-open", ct))!, new Dictionary<string, string?> { ["Slots:Cors:Origins:0"] = Allowed });

        var byDefault = await closed.Client().SendAsync(Preflight(Allowed));
        var fromAllowed = await open.Client().SendAsync(Preflight(Allowed));
        var fromOther = await open.Client().SendAsync(Preflight("https://elsewhere.example.com"));

        Assert.False(byDefault.Headers.Contains("Access-Control-Allow-Origin"));
        Assert.Equal(Allowed, Assert.Single(fromAllowed.Headers.GetValues("Access-Control-Allow-Origin")));
        Assert.False(fromOther.Headers.Contains("Access-Control-Allow-Origin"));
    }

    [Fact]
    public async Task An_origin_with_a_path_is_refused_at_start()
    {
        var settings = (await _backend.CreateDatabaseAsync("cors-bad", TestContext.Current.CancellationToken))!;
        await using var host = new SlotsHost(settings, new Dictionary<string, string?> { ["Slots:Cors:Origins:0"] = Allowed + "/booking" });

        var refused = Assert.ThrowsAny<Exception>(() => host.Client());

        Assert.Contains("Slots:Cors:Origins", (refused.InnerException ?? refused).Message, StringComparison.Ordinal);
    }

    private static HttpRequestMessage Preflight(string origin) => new(HttpMethod.Options, "/api/reservations")
    {
        Headers =
        {
            { "Origin", origin },
            { "Access-Control-Request-Method", "POST" },
            { "Access-Control-Request-Headers", "content-type, idempotency-key" },
        },
    };

    public ValueTask DisposeAsync() => _backend.DisposeAsync();
}
