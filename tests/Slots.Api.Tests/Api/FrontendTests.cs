using System.Net;
using Slots.Testing.Web;

namespace Slots.Api.Tests.Api;

/// <summary>
/// The SPA as the API serves it, from a fake build (an index page and one hashed asset) so the
/// tests need no npm build. Regression: every asset used to be answered 200 text/html with the
/// index page, because the catch-all fallback route was chosen before the static files were looked at.
/// </summary>
public sealed class FrontendTests : ApiTestBase
{
    private const string Index = "<!doctype html><title>fake spa</title><script type=\"module\" src=\"./assets/x-abc123.js\"></script>";
    private const string Script = "console.log('fake spa');";
    private static readonly byte[] Brotli = [0x0b, 0x0b, 0x80, 0x62, 0x72];
    private static readonly byte[] Gzip = [0x1f, 0x8b, 0x08, 0x00, 0x67];

    private readonly DirectoryInfo _dist = Directory.CreateTempSubdirectory("slots-dist-");

    private async Task<HttpClient> ServeFakeBuildAsync(string? staffAuthority = null)
    {
        File.WriteAllText(Path.Combine(_dist.FullName, "index.html"), Index);
        Directory.CreateDirectory(Path.Combine(_dist.FullName, "assets"));
        File.WriteAllText(Path.Combine(_dist.FullName, "assets", "x-abc123.js"), Script);
        // What the build writes beside a script (frontend/build/precompress.ts); the bytes only need to differ.
        File.WriteAllBytes(Path.Combine(_dist.FullName, "assets", "x-abc123.js.br"), Brotli);
        File.WriteAllBytes(Path.Combine(_dist.FullName, "assets", "x-abc123.js.gz"), Gzip);
        var host = await StartAsync(new Dictionary<string, string?>
        {
            ["Slots:Frontend:Root"] = _dist.FullName,
            ["Authentication:Schemes:Bearer:Authority"] = staffAuthority,
        });
        return host.Client();
    }

    [Fact]
    public async Task A_hashed_script_is_served_as_javascript_and_cached_for_good()
    {
        var client = await ServeFakeBuildAsync();

        var response = await client.GetAsync("/assets/x-abc123.js");

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/javascript", response.Content.Headers.ContentType!.MediaType);
        Assert.Equal(Script, await response.Content.ReadAsStringAsync());
        var cache = response.Headers.CacheControl!;
        Assert.True(cache.Public);
        Assert.Equal(TimeSpan.FromDays(365), cache.MaxAge);
        Assert.Contains(cache.Extensions, e => e.Name == "immutable");
    }

    [Theory]
    [InlineData("/")]
    [InlineData("/index.html")]
    public async Task The_index_page_is_html_that_is_revalidated_every_time(string path)
    {
        var client = await ServeFakeBuildAsync();

        var response = await client.GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType!.MediaType);
        Assert.Equal(Index, await response.Content.ReadAsStringAsync());
        Assert.True(response.Headers.CacheControl!.NoCache);
    }

    [Theory]
    [InlineData("/manage")]
    [InlineData("/admin/places/7")]
    public async Task A_client_route_gets_the_index_page(string path)
    {
        var client = await ServeFakeBuildAsync();

        var response = await client.GetAsync(path);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal("text/html", response.Content.Headers.ContentType!.MediaType);
        Assert.Equal(Index, await response.Content.ReadAsStringAsync());
        Assert.True(response.Headers.CacheControl!.NoCache);
    }

    [Theory]
    [InlineData("/api/nope")]
    [InlineData("/api")]
    [InlineData("/api/places/1/nope")]
    public async Task An_unknown_api_path_stays_a_404_problem(string path)
    {
        var client = await ServeFakeBuildAsync();

        var response = await client.GetAsync(path);

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.Equal("application/problem+json", response.Content.Headers.ContentType!.MediaType);
    }

    [Fact]
    public async Task A_missing_asset_is_a_404_not_the_index_page()
    {
        var client = await ServeFakeBuildAsync();

        var response = await client.GetAsync("/assets/gone-123.js");

        Assert.Equal(HttpStatusCode.NotFound, response.StatusCode);
        Assert.DoesNotContain("fake spa", await response.Content.ReadAsStringAsync());
    }

    [Theory]
    [InlineData("gzip, deflate, br, zstd", "br")]
    [InlineData("gzip", "gzip")]
    [InlineData("br;q=0, gzip;q=0.5", "gzip")]
    public async Task A_script_the_build_precompressed_is_sent_encoded_to_a_browser_that_accepts_it(string accepted, string encoding)
    {
        var client = await ServeFakeBuildAsync();
        using var request = new HttpRequestMessage(HttpMethod.Get, "/assets/x-abc123.js");
        request.Headers.TryAddWithoutValidation("Accept-Encoding", accepted);

        var response = await client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Equal([encoding], response.Content.Headers.ContentEncoding);
        Assert.Equal("text/javascript", response.Content.Headers.ContentType!.MediaType);
        Assert.Equal(encoding == "br" ? Brotli : Gzip, await response.Content.ReadAsByteArrayAsync());
        Assert.Equal(["Accept-Encoding"], response.Headers.Vary);
        Assert.Contains(response.Headers.CacheControl!.Extensions, e => e.Name == "immutable");
    }

    [Fact]
    public async Task A_browser_that_accepts_no_encoding_gets_the_plain_script_with_vary()
    {
        var client = await ServeFakeBuildAsync();

        var response = await client.GetAsync("/assets/x-abc123.js");

        Assert.Empty(response.Content.Headers.ContentEncoding);
        Assert.Equal(Script, await response.Content.ReadAsStringAsync());
        Assert.Equal(["Accept-Encoding"], response.Headers.Vary);
    }

    [Fact]
    public async Task An_api_answer_is_not_compressed_by_the_frontend()
    {
        var client = await ServeFakeBuildAsync();
        using var request = new HttpRequestMessage(HttpMethod.Get, "/api/places/regions");
        request.Headers.TryAddWithoutValidation("Accept-Encoding", "gzip, br");

        var response = await client.SendAsync(request);

        Assert.Equal(HttpStatusCode.OK, response.StatusCode);
        Assert.Empty(response.Content.Headers.ContentEncoding);
        Assert.DoesNotContain("Accept-Encoding", response.Headers.Vary);
    }

    [Theory]
    [InlineData("/")]
    [InlineData("/manage")]
    public async Task The_page_is_sent_with_its_security_headers(string path)
    {
        var client = await ServeFakeBuildAsync();

        var response = await client.GetAsync(path);

        var policy = Assert.Single(response.Headers.GetValues("Content-Security-Policy"));
        Assert.Contains("default-src 'self'", policy, StringComparison.Ordinal);
        Assert.Contains("frame-ancestors 'none'", policy, StringComparison.Ordinal);
        Assert.DoesNotContain("unsafe-inline", policy, StringComparison.Ordinal);
        Assert.Equal(["nosniff"], response.Headers.GetValues("X-Content-Type-Options"));
        Assert.Equal(["no-referrer"], response.Headers.GetValues("Referrer-Policy"));
    }

    // The staff screens sign in at the site's OpenID provider: the page may fetch from its origin, and only from it.
    [Fact]
    public async Task With_a_staff_authority_the_page_may_connect_to_its_origin()
    {
        var client = await ServeFakeBuildAsync("https://login.example.sk/realms/slots");

        var policy = Assert.Single((await client.GetAsync("/")).Headers.GetValues("Content-Security-Policy"));

        Assert.EndsWith("; connect-src 'self' https://login.example.sk", policy, StringComparison.Ordinal);
        Assert.Contains("default-src 'self'", policy, StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_script_is_sent_with_nosniff()
    {
        var client = await ServeFakeBuildAsync();

        var response = await client.GetAsync("/assets/x-abc123.js");

        Assert.Equal(["nosniff"], response.Headers.GetValues("X-Content-Type-Options"));
    }

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        _dist.Delete(recursive: true);
    }
}
