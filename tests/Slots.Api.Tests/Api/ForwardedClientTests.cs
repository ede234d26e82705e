using System.Net;
using Slots.Testing.Web;
using static Slots.Testing.Web.Api;

namespace Slots.Api.Tests.Api;

/// <summary>
/// Behind HAProxy every request comes from the proxy's address: the API's own limiter must count
/// the client named in X-Forwarded-For, and believe that header only from a trusted proxy.
/// </summary>
public sealed class ForwardedClientTests : ApiTestBase
{
    private static readonly Dictionary<string, string?> TwoWrites = new()
    {
        ["Slots:RateLimits:WritesPerWindow"] = "2",
        ["Slots:RateLimits:Window"] = "00:00:30",
    };

    [Fact]
    public async Task Behind_a_trusted_proxy_the_write_limit_counts_each_forwarded_client_on_its_own()
    {
        var host = await StartAsync(new Dictionary<string, string?>(TwoWrites)
        {
            ["Slots:TrustedProxies:0"] = "127.0.0.1",
            ["Slots:TrustedProxies:1"] = "::1",
        });
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 10);

        var first = new List<HttpStatusCode>();
        for (var i = 0; i < 3; i++)
        {
            first.Add((await client.SendAsync(From("203.0.113.7", Reserve(place, Today.AddDays(2), "08:00", People.Next())))).StatusCode);
        }
        var second = await client.SendAsync(From("203.0.113.8", Reserve(place, Today.AddDays(2), "08:00", People.Next())));

        Assert.Equal([HttpStatusCode.Created, HttpStatusCode.Created, HttpStatusCode.TooManyRequests], first);
        Assert.Equal(HttpStatusCode.Created, second.StatusCode);
    }

    [Fact]
    public async Task From_an_untrusted_peer_a_forged_forwarded_address_does_not_dodge_the_limit()
    {
        var host = await StartAsync(TwoWrites);
        var client = host.Client();
        var place = await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 10);

        var statuses = new List<HttpStatusCode>();
        for (var i = 0; i < 3; i++)
        {
            statuses.Add((await client.SendAsync(From($"198.51.100.{i + 1}", Reserve(place, Today.AddDays(2), "08:00", People.Next())))).StatusCode);
        }

        Assert.Equal([HttpStatusCode.Created, HttpStatusCode.Created, HttpStatusCode.TooManyRequests], statuses);
    }

    // HAProxy ends TLS and the instances see plain HTTP: a finder's manifest named its files http:// on the HTTPS port, and
    // a finder (the benchmark's, on the stack) could not read them.
    [Theory]
    [InlineData(true, "https://")]
    [InlineData(false, "http://")]
    public async Task A_finders_manifest_names_its_files_with_the_scheme_a_trusted_proxy_forwards(bool trusted, string scheme)
    {
        var host = await StartAsync(trusted
            ? new Dictionary<string, string?> { ["Slots:TrustedProxies:0"] = "127.0.0.1", ["Slots:TrustedProxies:1"] = "::1" }
            : []);
        await CreatePlaceWithSlotsAsync(host.AdminClient(), capacity: 2);
        using var request = new HttpRequestMessage(HttpMethod.Get, "/fhir/$bulk-publish");
        request.Headers.Add("X-Forwarded-Proto", "https");

        var manifest = await (await host.Client().SendAsync(request, TestContext.Current.CancellationToken)).Content.ReadAsStringAsync(TestContext.Current.CancellationToken);

        var urls = System.Text.Json.Nodes.JsonNode.Parse(manifest)!["output"]!.AsArray().Select(o => o!["url"]!.GetValue<string>()).ToList();
        Assert.NotEmpty(urls);
        Assert.All(urls, url => Assert.StartsWith(scheme, url, StringComparison.Ordinal));
    }

    private static HttpRequestMessage From(string client, HttpRequestMessage request)
    {
        request.Headers.Add("X-Forwarded-For", client);
        return request;
    }
}
