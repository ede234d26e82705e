using System.Globalization;
using System.Net;
using Slots.Stack.Tests.Infrastructure;

namespace Slots.Stack.Tests;

/// <summary>HAProxy's cache in front of availability: the same week asked again within a second does not reach an API instance.</summary>
[Collection(SerialStackTests.Name)]
public sealed class CacheTests(SharedApis shared)
{
    [Fact]
    public async Task Repeated_availability_reads_within_a_second_are_answered_by_haproxy_and_a_matching_etag_gets_304()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>(), "cache", ct);
        var place = await Places.CreateAsync(shared.Apis, capacity: 5);
        using var client = Clients.From(IPAddress.Parse("127.0.0.24"), haproxy);
        var url = $"/api/places/{place}/availability?from={Places.Day(Places.BookableDay)}&to={Places.Day(Places.BookableDay)}";
        using var metrics = new HttpClient();
        var before = await ReadsAsync(metrics, ct);

        var answers = new List<HttpResponseMessage>();
        for (var i = 0; i < 5; i++)
        {
            answers.Add(await client.GetAsync(url, ct));
        }
        using var conditional = new HttpRequestMessage(HttpMethod.Get, url);
        conditional.Headers.IfNoneMatch.Add(answers[0].Headers.ETag!);
        var notModified = await client.SendAsync(conditional, ct);
        // The exporter keeps a scrape for a moment; a second later it counts afresh.
        await Task.Delay(TimeSpan.FromSeconds(1), ct);
        var reached = await ReadsAsync(metrics, ct) - before;

        Figures.Report($"availability cache: 6 reads through HAProxy in about a second, {reached} reached an API instance");
        Assert.All(answers, a => Assert.Equal(HttpStatusCode.OK, a.StatusCode));
        Assert.Single(answers.Select(a => a.Headers.ETag!.Tag).Distinct());
        Assert.Equal(HttpStatusCode.NotModified, notModified.StatusCode);
        // Once, or twice when the second's boundary fell between the reads.
        Assert.InRange(reached, 1, 2);
    }

    /// <summary>Availability answers counted by the API instances themselves (their /metrics answer loopback callers).</summary>
    private async Task<double> ReadsAsync(HttpClient metrics, CancellationToken ct)
    {
        var total = 0.0;
        foreach (var api in shared.Apis)
        {
            var text = await metrics.GetStringAsync(new Uri(api.BaseAddress, "/metrics"), ct);
            total += text.Split('\n')
                .Where(l => l.StartsWith("slots_api_availability_reads_total", StringComparison.Ordinal))
                .Sum(l => double.Parse(l[(l.LastIndexOf(' ') + 1)..], CultureInfo.InvariantCulture));
        }
        return total;
    }
}
