using System.Globalization;
using System.Net;
using Slots.Stack.Tests.Infrastructure;

namespace Slots.Stack.Tests;

[Collection(SerialStackTests.Name)]
public sealed class OverloadTests(SharedApis shared)
{
    private static readonly TimeSpan QueueTimeout = TimeSpan.FromMilliseconds(100);

    // Room for a loaded two-core machine to schedule the client, HAProxy and two APIs, and for the burst's
    // 600 TLS handshakes (one connection per request in flight), which every answer's latency includes:
    // 3.8 to 6.7 s on a slow two-core VM, with the code that had passed in 3 s before. Still far below
    // what an unbounded queue would make a person wait; that the queue sheds at all is asserted by the
    // overloaded and rate-limited 429s themselves.
    private static readonly TimeSpan Margin = TimeSpan.FromSeconds(10);

    [Fact]
    public async Task A_burst_far_over_capacity_is_shed_fast_with_Retry_After_and_what_was_admitted_completes()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        // Capacity of this HAProxy: 1 in flight per instance, 10 waiting per instance for at most 100 ms.
        // Small enough that the burst outlasts the queue however fast a booking is: with 2 in flight
        // and 500 ms, the set-based hot path drained all 480 admitted within the timeout and the queue turned none away.
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>
        {
            ["SLOTS_SERVER_MAXCONN"] = "1",
            ["SLOTS_SERVER_MAXQUEUE"] = "10",
            ["SLOTS_QUEUE_TIMEOUT"] = "100ms",
            // This test is about the queue's own limits (maxqueue, timeout queue): admission control off.
            ["SLOTS_SHED_QUEUE"] = "100000",
            ["SLOTS_SHED_PER_SERVING"] = "100000",
        }, "overload", ct);
        var place = await Places.CreateAsync(shared.Apis, capacity: 400);
        // 24 addresses × 25 requests: each address also goes past its write budget (20 per 10 s), so both lines shed.
        using var clients = new Clients(haproxy, 24);

        var bookings = Enumerable.Range(0, 600).Select(i => new Booking(place, Places.BookableDay, Places.Times[i % 6], Places.NextPerson())).ToArray();
        await Task.WhenAll(bookings.Select((b, i) => b.SendAsync(clients[i])));

        var answers = bookings.Select(b => b.Final!).ToArray();
        var shed = answers.Where(a => a.Status is HttpStatusCode.ServiceUnavailable or HttpStatusCode.TooManyRequests).ToArray();
        var admitted = answers.Where(a => a.Status is HttpStatusCode.Created or HttpStatusCode.Conflict).ToArray();
        Figures.Report($"overload: 600 at once -> {admitted.Length} admitted, {answers.Count(a => a.Status == HttpStatusCode.ServiceUnavailable)} × 503, {answers.Count(a => a.Status == HttpStatusCode.TooManyRequests)} × 429 ({100.0 * shed.Length / answers.Length:F0} % shed); slowest shed answer {shed.Max(a => a.Latency).TotalMilliseconds:F0} ms, slowest admitted {admitted.Max(a => a.Latency).TotalMilliseconds:F0} ms");

        // With both servers up, what the queue turned away (past its timeout, or full) is a 429 like the shedding
        // rules', never a 503: a 503 is kept for no server up (FailureTests).
        Assert.Equal(600, admitted.Length + shed.Length);
        Assert.DoesNotContain(answers, a => a.Status == HttpStatusCode.ServiceUnavailable);
        Assert.Contains(answers, a => a.Code == "overloaded");
        Assert.Contains(answers, a => a.Code == "rate-limited");
        Assert.NotEmpty(admitted);
        Assert.All(shed, a =>
        {
            Assert.Equal(HttpStatusCode.TooManyRequests, a.Status);
            Assert.Equal("application/problem+json", a.ContentType);
            Assert.Equal(429, a.ProblemStatus);
            Assert.Contains(a.Code, new[] { "overloaded", "rate-limited" });
            Assert.NotNull(a.RetryAfter);
            Assert.InRange(a.Latency, TimeSpan.Zero, QueueTimeout + Margin);
        });
        Assert.All(shed.Where(a => a.Code == "overloaded"), a => Assert.Equal(TimeSpan.FromSeconds(1), a.RetryAfter));
        Assert.All(admitted, a => Assert.Equal(HttpStatusCode.Created, a.Status));
        var stored = await Ledger.ReservationsAsync(shared.ConnectionString, place);
        Assert.Equal(bookings.Select(b => b.Code).OfType<string>().Order(), stored.Keys.Order());
    }

    [Fact]
    public async Task A_crowd_under_every_client_budget_is_turned_away_with_an_immediate_429_once_the_queue_is_long()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        // A long queue timeout: without admission control these requests would wait, not be shed.
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>
        {
            ["SLOTS_SERVER_MAXCONN"] = "2",
            ["SLOTS_SERVER_MAXQUEUE"] = "500",
            ["SLOTS_QUEUE_TIMEOUT"] = "10s",
            ["SLOTS_SHED_QUEUE"] = "4",
        }, "shed", ct);
        var place = await Places.CreateAsync(shared.Apis, capacity: 400);
        // 200 addresses × 2 requests: every client stays far under its write budget.
        using var clients = new Clients(haproxy, 200);

        var bookings = Enumerable.Range(0, 400).Select(i => new Booking(place, Places.BookableDay, Places.Times[i % 6], Places.NextPerson())).ToArray();
        await Task.WhenAll(bookings.Select((b, i) => b.SendAsync(clients[i % 200])));

        var (admitted, turnedAway) = CrowdAnswers.AdmittedOrTurnedAwayAtOnce(bookings);
        Figures.Report($"admission control: 400 at once from 200 addresses -> {admitted.Length} × 201, {turnedAway.Length} × 429 overloaded; slowest 429 {turnedAway.Max(a => a.Latency).TotalMilliseconds:F0} ms, slowest 201 {admitted.Max(a => a.Latency).TotalMilliseconds:F0} ms");
        var stored = await Ledger.ReservationsAsync(shared.ConnectionString, place);
        Assert.Equal(bookings.Select(b => b.Code).OfType<string>().Order(), stored.Keys.Order());
    }

    [Fact]
    public async Task Every_booking_HAProxy_turns_away_before_reading_its_body_hears_its_429_and_none_is_lost_to_a_reset()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        // A queue of 0 or more is always long enough: HAProxy's shedding rule answers every booking itself, as a
        // stampede's excess is answered, and the instances see none.
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>
        {
            ["SLOTS_SHED_QUEUE"] = "0",
        }, "shed-all", ct);
        var place = await Places.CreateAsync(shared.Apis, capacity: 10);
        using var clients = new Clients(haproxy, 200);

        // 200 addresses, 5 bookings one after the other on each: the kept-alive connections are used again.
        var bookings = Enumerable.Range(0, 1000).Select(i => new Booking(place, Places.BookableDay, Places.Times[i % 6], Places.NextPerson())).ToArray();
        await Task.WhenAll(Enumerable.Range(0, 200).Select(async c =>
        {
            for (var i = c; i < bookings.Length; i += 200)
            {
                await bookings[i].SendAsync(clients[c]);
            }
        }));

        var answers = bookings.Select(b => b.Final!).ToArray();
        Figures.Report($"shed at the proxy: 1000 bookings from 200 addresses -> {answers.Count(a => a.Status == HttpStatusCode.TooManyRequests)} × 429, {answers.Count(a => a.Status is null)} without an answer");
        Assert.All(answers, a =>
        {
            Assert.Equal(HttpStatusCode.TooManyRequests, a.Status);
            Assert.Equal("overloaded", a.Code);
        });
    }

    [Fact]
    public async Task A_booking_turned_away_before_its_body_arrived_keeps_the_connection_for_the_next_request()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        await using var haproxy = await StackProcesses.StartHaproxyAsync(shared.Apis, new Dictionary<string, string>
        {
            ["SLOTS_SHED_QUEUE"] = "0",
        }, "shed-slow-body", ct);
        // A client on a starved machine writes the headers, and the body a moment later. HAProxy must not answer before
        // the body is in: a connection answered early cannot be kept, and the client's next request on it, sent as
        // HAProxy closes it, would end without an answer (what a stampede's generator saw as "ResponseEnded").
        await using var connection = await RawHttps.ConnectAsync(haproxy, ct);
        const string body = """{"placeId":1,"date":"2030-01-01","time":"08:00","nationalId":"000000/0000","phone":"+421900000000"}""";
        var head = $"POST /api/reservations HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nIdempotency-Key: {Guid.NewGuid()}\r\nContent-Length: {body.Length}\r\n\r\n";

        var statuses = new List<string>();
        for (var request = 0; request < 3; request++)
        {
            await connection.WriteAsync(head, ct);
            await Task.Delay(300, ct);
            await connection.WriteAsync(body, ct);
            statuses.Add(await connection.ReadStatusAsync(ct));
        }

        Assert.Equal(["429", "429", "429"], statuses);
    }
}
