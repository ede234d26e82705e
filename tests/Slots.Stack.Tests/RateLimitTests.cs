using System.Net;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.Stack.Tests.Infrastructure;

namespace Slots.Stack.Tests;

[Collection(SerialStackTests.Name)]
public sealed class RateLimitTests(SharedApis shared)
{
    [Fact]
    public async Task A_client_over_its_write_budget_gets_429_from_haproxy_others_do_not_and_after_Retry_After_it_gets_through()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        // Five writes per six seconds per address: the shape of the real limit, small enough to test quickly, and
        // a period long enough that a slow machine still sends all eight inside it.
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>
        {
            ["SLOTS_RATE_WRITES"] = "5",
            ["SLOTS_RATE_PERIOD_S"] = "6",
        }, "ratelimit", ct);
        var place = await Places.CreateAsync(shared.Apis, capacity: 50);
        using var greedy = Clients.From(IPAddress.Parse("127.0.0.21"), haproxy);
        using var other = Clients.From(IPAddress.Parse("127.0.0.22"), haproxy);

        var bookings = Enumerable.Range(0, 8).Select(_ => new Booking(place, Places.BookableDay, "08:00", Places.NextPerson())).ToArray();
        foreach (var booking in bookings)
        {
            await booking.SendAsync(greedy);
        }
        var raw = await greedy.PostAsJsonAsync("/api/reservations", new { placeId = place }, ct);
        var othersBooking = new Booking(place, Places.BookableDay, "08:00", Places.NextPerson());
        var othersAnswer = await othersBooking.SendAsync(other);
        var readWhileLimited = await greedy.GetAsync($"/api/places/{place}/availability?from={Places.Day(Places.BookableDay)}&to={Places.Day(Places.BookableDay)}", ct);

        var limited = bookings.Select(b => b.Final!).Where(a => a.Status == HttpStatusCode.TooManyRequests).ToArray();
        Figures.Report($"rate limit: greedy client 8 writes in a burst -> {limited.Length} × 429 ({100.0 * limited.Length / 8:F0} %), Retry-After {limited.FirstOrDefault()?.RetryAfter?.TotalSeconds} s");
        Assert.Equal(5, bookings.Count(b => b.Final!.Status == HttpStatusCode.Created));
        Assert.Equal(3, limited.Length);
        Assert.All(limited, a =>
        {
            Assert.Equal("application/problem+json", a.ContentType);
            Assert.Equal("rate-limited", a.Code);
            // The period, plus period/limit, plus a second: the sliding rate and HAProxy's clock need that to drop under the limit.
            Assert.Equal(TimeSpan.FromSeconds(6 + (6 / 5) + 1), a.RetryAfter);
        });
        Assert.Equal(HttpStatusCode.TooManyRequests, raw.StatusCode);
        var problem = (await raw.Content.ReadFromJsonAsync<JsonObject>(ct))!;
        Assert.Equal("urn:slots:problem:rate-limited", problem["type"]!.GetValue<string>());
        Assert.Equal(429, problem["status"]!.GetValue<int>());
        Assert.Equal(HttpStatusCode.Created, othersAnswer.Status);
        Assert.Equal(HttpStatusCode.OK, readWhileLimited.StatusCode);

        await Task.Delay(limited[^1].RetryAfter!.Value, ct);
        var retried = await bookings.First(b => b.Final!.Status == HttpStatusCode.TooManyRequests).SendAsync(greedy);

        Assert.Equal(HttpStatusCode.Created, retried.Status);
    }

    [Fact]
    public async Task Waiting_room_polls_have_their_own_budget_a_client_out_of_reads_still_polls_and_one_polling_in_a_loop_is_refused()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>
        {
            ["SLOTS_RATE_READS"] = "4",
            ["SLOTS_RATE_ROOM"] = "6",
            ["SLOTS_RATE_PERIOD_S"] = "6",
        }, "roombudget", ct);
        using var client = Clients.From(IPAddress.Parse("127.0.0.23"), haproxy);

        var reads = new List<HttpStatusCode>();
        for (var i = 0; i < 6; i++)
        {
            reads.Add((await client.GetAsync("/api/places/regions", ct)).StatusCode);
        }
        // Out of reads, the person in the waiting room still hears where they stand (here: that the token is no token).
        var poll = await client.SendAsync(Status("not-a-token"), ct);
        var polls = new List<HttpResponseMessage> { poll };
        for (var i = 0; i < 7; i++)
        {
            polls.Add(await client.SendAsync(Status("not-a-token"), ct));
        }

        Figures.Report($"waiting-room budget: reads {string.Join(',', reads.Select(r => (int)r))}; polls {string.Join(',', polls.Select(p => (int)p.StatusCode))}");
        Assert.Contains(HttpStatusCode.TooManyRequests, reads);
        Assert.Equal(HttpStatusCode.Unauthorized, poll.StatusCode);
        Assert.Equal(6, polls.Count(p => p.StatusCode == HttpStatusCode.Unauthorized));
        var refused = polls.Where(p => p.StatusCode == HttpStatusCode.TooManyRequests).ToArray();
        Assert.Equal(2, refused.Length);
        Assert.Equal("rate-limited", (await refused[0].Content.ReadFromJsonAsync<JsonObject>(ct))!["code"]!.GetValue<string>());
    }

    private static HttpRequestMessage Status(string token)
    {
        var request = new HttpRequestMessage(HttpMethod.Get, "/api/waiting-room/status");
        request.Headers.Add("Waiting-Room-Token", token);
        return request;
    }
}
