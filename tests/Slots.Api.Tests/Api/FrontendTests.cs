using System.Net;
using Slots.Api.Tests.Infrastructure;

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

    private readonly DirectoryInfo _dist = Directory.CreateTempSubdirectory("slots-dist-");

    private async Task<HttpClient> ServeFakeBuildAsync()
    {
        File.WriteAllText(Path.Combine(_dist.FullName, "index.html"), Index);
        Directory.CreateDirectory(Path.Combine(_dist.FullName, "assets"));
        File.WriteAllText(Path.Combine(_dist.FullName, "assets", "x-abc123.js"), Script);
        var host = await StartAsync(new Dictionary<string, string?> { ["Slots:Frontend:Root"] = _dist.FullName });
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
    [InlineData("/api/places/abc")]
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

    public override async ValueTask DisposeAsync()
    {
        await base.DisposeAsync();
        _dist.Delete(recursive: true);
    }
}
