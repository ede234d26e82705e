using System.Net;
using Slots.Api.Http;
using Slots.Testing;

namespace Slots.Api.Tests.Api;

public sealed class ApiReferenceTests : ApiTestBase
{
    // /swagger answered 200 with the SPA's page: there was no reference page to find.
    [Fact]
    public async Task The_reference_page_is_served_from_the_document_and_swagger_leads_there()
    {
        var client = (await StartAsync()).Client();

        var page = await client.GetAsync("/scalar/");
        var swagger = await new HttpClient(new HttpClientHandler { AllowAutoRedirect = false }) { BaseAddress = client.BaseAddress }.GetAsync("/swagger");

        Assert.Equal(HttpStatusCode.OK, page.StatusCode);
        Assert.Equal("text/html", page.Content.Headers.ContentType!.MediaType);
        var html = await page.Content.ReadAsStringAsync(TestContext.Current.CancellationToken);
        Assert.Contains("openapi/v1.json", html, StringComparison.Ordinal);
        Assert.Equal(HttpStatusCode.OK, (await client.GetAsync("/scalar/scalar.js")).StatusCode);
        Assert.Equal(HttpStatusCode.Redirect, swagger.StatusCode);
        Assert.Equal("/scalar", swagger.Headers.Location!.OriginalString);
    }

    [Fact]
    public void Every_problem_code_is_described_in_docs_problems_md()
    {
        var doc = File.ReadAllText(Path.Combine(Repository.Root, "docs", "problems.md"));

        Assert.All(ProblemTypes.All, p => Assert.Contains($"| {p.Code} | {p.Status} |", doc, StringComparison.Ordinal));
    }

    // The samples carried 2026-11-25 and were refused as past days a day later.
    [Fact]
    public void The_http_samples_hard_code_no_day()
    {
        var samples = System.IO.Directory.GetFiles(Path.Combine(Repository.Root, "api"), "*.http", SearchOption.AllDirectories);

        Assert.NotEmpty(samples);
        Assert.All(samples, file => Assert.DoesNotMatch(@"\b\d{4}-\d{2}-\d{2}\b", File.ReadAllText(file)));
    }
}
