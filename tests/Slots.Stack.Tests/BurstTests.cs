using System.Net;
using Slots.Stack.Tests.Infrastructure;

namespace Slots.Stack.Tests;

[Collection(SerialStackTests.Name)]
public sealed class BurstTests(SharedApis shared)
{
    [Fact]
    public async Task Five_hundred_racers_through_haproxy_on_two_instances_fill_twenty_seats_once()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        // A queue long enough for the whole burst on a busy two-core machine; shedding has its own test. Each
        // instance's learnt limit still turns the excess away with 429 overloaded (Retry-After 1), and on a loaded
        // machine a racer can hear it eight times running: each retries up to 40 times (the page keeps on for 3 minutes).
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string> { ["SLOTS_QUEUE_TIMEOUT"] = "10s" }, "burst", ct);
        var place = await Places.CreateAsync(shared.Apis, capacity: 20);
        using var clients = new Clients(haproxy, 249);
        var before = await haproxy.ServersAsync(ct);

        var bookings = Enumerable.Range(0, 500).Select(_ => new Booking(place, Places.BookableDay, "08:00", Places.NextPerson())).ToArray();
        await Task.WhenAll(bookings.Select((b, i) => b.SendUntilAnsweredAsync(clients[i], maxAttempts: 40)));

        var after = await haproxy.ServersAsync(ct);
        var finals = bookings.Select(b => b.Final!).ToArray();
        var attempts = bookings.SelectMany(b => b.Attempts).ToArray();
        Figures.Report($"burst: 500 bookings, {attempts.Length} attempts, {attempts.Count(a => a.Status == HttpStatusCode.TooManyRequests)} × 429, {attempts.Count(a => a.Status == HttpStatusCode.ServiceUnavailable)} × 503 (retried); sessions api1 {after["api1"].Sessions - before["api1"].Sessions}, api2 {after["api2"].Sessions - before["api2"].Sessions}; slowest {attempts.Max(a => a.Latency).TotalMilliseconds:F0} ms");

        Assert.Equal(20, finals.Count(f => f.Status == HttpStatusCode.Created));
        Assert.All(finals.Where(f => f.Status != HttpStatusCode.Created), f =>
        {
            Assert.Equal(HttpStatusCode.Conflict, f.Status);
            Assert.Equal("slot-full", f.Code);
        });
        var codes = bookings.Select(b => b.Code).OfType<string>().ToHashSet();
        Assert.Equal(20, codes.Count);
        var stored = await Ledger.ReservationsAsync(shared.ConnectionString, place);
        Assert.Equal(codes.Order(), stored.Keys.Order());
        Assert.Equal(20, stored.Values.Select(s => s.Seat).Distinct().Count());
        Assert.Equal((20L, 0L), await Ledger.SeatsAsync(shared.ConnectionString, place));
        Assert.True(after["api1"].Sessions > before["api1"].Sessions, "api1 served none of the burst");
        Assert.True(after["api2"].Sessions > before["api2"].Sessions, "api2 served none of the burst");
    }
}
