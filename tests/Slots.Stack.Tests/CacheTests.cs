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

    [Fact]
    public async Task While_the_queue_sheds_bookings_a_week_already_in_the_cache_is_still_answered_from_it_and_logged_as_answered()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        // One instance that answers a week at once and holds every booking: with maxconn 1, one booking in service and
        // one in the queue make HAProxy shed what comes next (SLOTS_SHED_QUEUE 1), for as long as the test likes. The week
        // stays in the cache for 30 s, not the shipped second: on a loaded machine setting the queue up took longer than a
        // second, the entry expired, and the reads after it were misses, shed as they should be.
        await using var upstream = HeldUpstream.Start(maxAge: 30);
        await using var haproxy = await StackProcesses.StartHaproxyAsync([upstream.Address], new Dictionary<string, string>
        {
            ["SLOTS_CACHE_MAX_AGE"] = "30",
            ["SLOTS_SERVER_MAXCONN"] = "1",
            ["SLOTS_SHED_QUEUE"] = "1",
            ["SLOTS_SHED_PER_SERVING"] = "100000",
            ["SLOTS_QUEUE_TIMEOUT"] = "30s",
        }, "cache-shed", ct);
        using var reader = Clients.From(IPAddress.Parse("127.0.0.26"), haproxy);
        using var bookers = new Clients(haproxy, 3);
        const string url = "/api/places/7/availability?from=2026-12-01&to=2026-12-07";

        var first = await reader.GetAsync(url, ct);
        var inService = new Booking(7, Places.BookableDay, Places.Times[0], Places.NextPerson()).SendAsync(bookers[0]);
        await WaitUntilAsync(() => upstream.BookingsHeld == 1, ct);
        var queued = new Booking(7, Places.BookableDay, Places.Times[1], Places.NextPerson()).SendAsync(bookers[1]);
        await WaitUntilAsync(async () => await haproxy.QueuedAsync(ct) == 1, ct);
        var shedBooking = await new Booking(7, Places.BookableDay, Places.Times[2], Places.NextPerson()).SendAsync(bookers[2]);
        // The week twice more on one kept-alive connection, by hand: HttpClient would quietly replace a closed one.
        await using var connection = await RawHttps.ConnectAsync(haproxy, ct);
        var again = new List<string>();
        for (var i = 0; i < 2; i++)
        {
            await connection.WriteAsync($"GET {url} HTTP/1.1\r\nHost: {connection.Host}\r\n\r\n", ct);
            again.Add(await connection.ReadStatusAsync(ct));
        }

        Figures.Report($"cache while shedding: booking {(int?)shedBooking.Status} {shedBooking.Code}; the week again {string.Join(", ", again)}, instance reads {upstream.AvailabilityReads}");
        Assert.Equal(HttpStatusCode.OK, first.StatusCode);
        Assert.Equal(HttpStatusCode.TooManyRequests, shedBooking.Status);
        Assert.Equal("overloaded", shedBooking.Code);
        // The week is in the cache: the crowd waiting to book still sees the seats, the instance is not asked again, and
        // the connection is kept. HAProxy 2.6 answered a cache hit that a later rule turned away with that rule's 429 and
        // then closed the connection without saying so: the client's next request on it got no answer at all.
        Assert.Equal(["200", "200"], again);
        Assert.Equal(1, upstream.AvailabilityReads);
        // HAProxy's log says what the client heard: 200 from the cache, never a 400 for it (the benchmark reads it).
        string[] logged = [];
        await WaitUntilAsync(() => (logged = [.. haproxy.LogTail().Split('\n').Where(l => l.Contains(url, StringComparison.Ordinal))]).Length >= 3, ct);
        Assert.Equal(3, logged.Length);
        Assert.Contains(logged, l => l.Contains("<CACHE>", StringComparison.Ordinal) && l.Contains(" 200 ", StringComparison.Ordinal));
        Assert.DoesNotContain(logged, l => l.Contains(" 400 ", StringComparison.Ordinal));
        Assert.False(inService.IsCompleted || queued.IsCompleted);
    }

    [Fact]
    public async Task An_answer_from_the_cache_is_not_counted_against_the_clients_read_budget()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>
        {
            ["SLOTS_RATE_READS"] = "3",
        }, "cache-budget", ct);
        var place = await Places.CreateAsync(shared.Apis, capacity: 5);
        using var client = Clients.From(IPAddress.Parse("127.0.0.27"), haproxy);
        var url = $"/api/places/{place}/availability?from={Places.Day(Places.BookableDay)}&to={Places.Day(Places.BookableDay)}";

        var statuses = new List<HttpStatusCode>();
        for (var i = 0; i < 8; i++)
        {
            using var answer = await client.GetAsync(url, ct);
            statuses.Add(answer.StatusCode);
        }

        Figures.Report($"read budget 3 per 10 s: 8 reads of one week in a row -> {string.Join(", ", statuses.Select(s => (int)s))}");
        // One read reached an instance (two if the cached second ended between them): far under the budget of 3.
        Assert.All(statuses, s => Assert.Equal(HttpStatusCode.OK, s));
    }

    private static async Task WaitUntilAsync(Func<Task<bool>> condition, CancellationToken ct)
    {
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (!await condition())
        {
            Assert.True(clock.Elapsed < TimeSpan.FromSeconds(10), "the condition did not hold within 10 s");
            await Task.Delay(5, ct);
        }
    }

    private static Task WaitUntilAsync(Func<bool> condition, CancellationToken ct) => WaitUntilAsync(() => Task.FromResult(condition()), ct);

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
