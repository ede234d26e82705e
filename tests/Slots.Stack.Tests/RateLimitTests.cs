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
        using var greedy = Clients.From(IPAddress.Parse("127.0.0.21"), haproxy.FrontAddress);
        using var other = Clients.From(IPAddress.Parse("127.0.0.22"), haproxy.FrontAddress);

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
}
