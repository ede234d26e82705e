using System.Net;
using System.Net.Http.Headers;
using Slots.Testing;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Staff;

/// <summary>
/// Sign-in as a site would deploy it: the API trusts a real OpenID provider (oidc-provider, started
/// on loopback) by its authority and audience, and reads the keys from its discovery document.
/// </summary>
public sealed class StaffSignInTests : IAsyncDisposable
{
    private readonly SqliteBackend _backend = new();
    private readonly List<IAsyncDisposable> _started = [];

    private async Task<(SlotsHost Host, OidcTestProvider Provider)> StartAsync()
    {
        var provider = await OidcTestProvider.StartAsync(ct: TestContext.Current.CancellationToken);
        _started.Add(provider);
        var settings = (await _backend.CreateDatabaseAsync("signin" + Guid.NewGuid().ToString("N")[..8], TestContext.Current.CancellationToken))!;
        var host = new SlotsHost(settings, new Dictionary<string, string?>
        {
            ["Authentication:Schemes:Bearer:Authority"] = provider.Issuer,
            ["Authentication:Schemes:Bearer:RequireHttpsMetadata"] = "false",
            ["Authentication:Schemes:Bearer:ValidAudiences:0"] = provider.Audience,
            ["Slots:Staff:TokenClockSkew"] = "00:00:00",
        });
        _started.Add(host);
        return (host, provider);
    }

    private static HttpClient With(SlotsHost host, string token)
    {
        var client = host.Client();
        client.DefaultRequestHeaders.Authorization = new AuthenticationHeaderValue("Bearer", token);
        return client;
    }

    [Fact]
    public async Task A_token_from_the_sites_provider_signs_staff_in_with_their_role_and_places()
    {
        var (host, provider) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        var other = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        var token = await provider.TokenAsync("nurse-12", ["site-staff"], [place]);

        var me = await JsonAsync(await With(host, token).GetAsync("/api/staff/me"));
        var own = await With(host, token).GetAsync($"/api/staff/places/{place}/roster");
        var foreign = await With(host, token).GetAsync($"/api/staff/places/{other}/roster");

        Assert.Equal("nurse-12", me["subject"]!.GetValue<string>());
        Assert.Equal("site-staff", me["role"]!.GetValue<string>());
        Assert.Equal([place], me["places"]!.AsArray().Select(p => p!.GetValue<int>()));
        Assert.Equal(HttpStatusCode.OK, own.StatusCode);
        Assert.Equal(HttpStatusCode.Forbidden, foreign.StatusCode);
        Assert.Equal("place-forbidden", await ProblemCodeAsync(foreign));
    }

    [Fact]
    public async Task Tokens_of_another_provider_and_expired_ones_get_401()
    {
        var (host, provider) = await StartAsync();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 1);
        await using var stranger = await OidcTestProvider.StartAsync(ct: TestContext.Current.CancellationToken);
        var foreign = await stranger.TokenAsync("intruder", ["admin"], []);
        // Long enough to be used once on a slow machine (the first use also fetches the provider's
        // keys; a one-second token had expired before it on a busy 2-core runner), then waited out.
        var lifetime = TimeSpan.FromSeconds(6);
        var minted = System.Diagnostics.Stopwatch.StartNew();
        var brief = await provider.TokenAsync("nurse-7", ["site-staff"], [place], lifetime);
        Assert.Equal(HttpStatusCode.OK, (await With(host, brief).GetAsync($"/api/staff/places/{place}/roster")).StatusCode);

        await Task.Delay(lifetime - minted.Elapsed + TimeSpan.FromSeconds(1.5), TestContext.Current.CancellationToken); // past the token's lifetime

        foreach (var token in new[] { foreign, brief })
        {
            var refused = await With(host, token).GetAsync($"/api/staff/places/{place}/roster");
            Assert.Equal(HttpStatusCode.Unauthorized, refused.StatusCode);
            Assert.Equal("unauthenticated", await ProblemCodeAsync(refused));
        }
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var started in Enumerable.Reverse(_started))
        {
            await started.DisposeAsync();
        }
        await _backend.DisposeAsync();
    }
}
