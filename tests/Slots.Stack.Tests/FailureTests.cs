using System.Diagnostics;
using System.Net;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Stack.Tests;

/// <summary>Traffic keeps flowing while an instance dies or the database goes away; nothing confirmed is lost.</summary>
[Collection(SerialStackTests.Name)]
public sealed class FailureTests
{
    // HAProxy checks every second and takes a server out after two misses (haproxy.cfg defaults);
    // one more second for the check's own timeout, and one for a loaded machine.
    private static readonly TimeSpan DetectionLimit = TimeSpan.FromSeconds(4);

    // Impatient test clients: honour Retry-After up to a quarter second, so recovery is measured finely.
    private static readonly TimeSpan MaxWait = TimeSpan.FromMilliseconds(250);

    [Fact]
    public async Task An_instance_killed_during_traffic_is_taken_out_and_no_confirmed_booking_is_lost()
    {
        StackProcesses.SkipWithoutHaproxy();
        var ct = TestContext.Current.CancellationToken;
        var server = await StackProcesses.SharedPostgresOrSkipAsync();
        var connectionString = await server.CreateDatabaseAsync("kill" + Guid.NewGuid().ToString("N")[..12], ct);
        var apis = await StackProcesses.StartApisAsync(connectionString, 2, "kill", ct);
        try
        {
            await using var haproxy = await StackProcesses.StartHaproxyAsync(apis, HighLimits, "kill", ct);
            var place = await Places.CreateAsync(apis, capacity: 1000);
            using var clients = new Clients(haproxy, 16);
            using var traffic = new Traffic(clients, place, TimeSpan.FromMilliseconds(20));

            await Task.Delay(1500, ct);
            apis[1].Kill();
            var killedAt = Stopwatch.StartNew();
            var detection = await haproxy.WaitAsync(s => s["api2"].Status == "DOWN", TimeSpan.FromSeconds(15), ct);
            var sessionsAtDown = (await haproxy.ServersAsync(ct))["api2"].Sessions;
            await Task.Delay(2000, ct);
            var sessionsLater = (await haproxy.ServersAsync(ct))["api2"].Sessions;
            var bookings = await traffic.StopAsync();

            var errors = bookings.SelectMany(b => b.Attempts).Count(a => a.Status is not (HttpStatusCode.Created or HttpStatusCode.Conflict));
            Figures.Report($"kill: {bookings.Count} bookings; api2 SIGKILLed, HAProxy marked it DOWN after {detection.TotalMilliseconds:F0} ms; {errors} attempts answered 5xx or dropped and retried with the same key");

            Assert.InRange(detection, TimeSpan.Zero, DetectionLimit);
            Assert.Equal(sessionsAtDown, sessionsLater);
            Assert.All(bookings, b => Assert.Equal(HttpStatusCode.Created, b.Final!.Status));
            await AssertNothingConfirmedIsLostAsync(connectionString, place, bookings);
        }
        finally
        {
            foreach (var api in apis)
            {
                await api.DisposeAsync();
            }
        }
    }

    [Fact]
    public async Task While_the_database_is_stopped_the_answer_is_503_with_Retry_After_and_after_its_restart_booking_resumes_by_itself()
    {
        StackProcesses.SkipWithoutHaproxy();
        var ct = TestContext.Current.CancellationToken;
        var server = await Unavailable.SkipOrFailAsync(PostgresServer.OwnAsync);
        await using var _ = server;
        var connectionString = await server.CreateDatabaseAsync("slots", ct);
        var apis = await StackProcesses.StartApisAsync(connectionString, 2, "restart", ct);
        try
        {
            await using var haproxy = await StackProcesses.StartHaproxyAsync(apis, HighLimits, "restart", ct);
            var place = await Places.CreateAsync(apis, capacity: 1000);
            using var clients = new Clients(haproxy, 8);
            using var traffic = new Traffic(clients, place, TimeSpan.FromMilliseconds(20));

            await Task.Delay(1500, ct);
            var stopping = Booking.NowMs;
            await server.StopAsync();
            var stopped = Booking.NowMs;
            // Readiness fails with the database: the health checks alone take both instances out.
            var bothDown = await haproxy.WaitAsync(s => s.Values.All(v => v.Status == "DOWN"), TimeSpan.FromSeconds(15), ct);
            await Task.Delay(1500, ct);
            var starting = Booking.NowMs;
            await server.StartAsync();
            var started = Booking.NowMs;
            var recovery = await traffic.FirstCreatedSentAfterAsync(started, TimeSpan.FromSeconds(30));
            var bothUp = await haproxy.WaitAsync(s => s.Values.All(v => v.Status == "UP"), TimeSpan.FromSeconds(15), ct) + TimeSpan.FromMilliseconds(Booking.NowMs - started);
            await Task.Delay(1000, ct);
            var bookings = await traffic.StopAsync();

            var duringOutage = bookings.SelectMany(b => b.Attempts).Where(a => a.SentAtMs > stopped && a.SentAtMs + a.Latency.TotalMilliseconds < starting).ToArray();
            Figures.Report($"database restart: stop took {stopped - stopping} ms, start {started - starting} ms; during the outage {duringOutage.Length} attempts: {duringOutage.Count(a => a.Status == HttpStatusCode.ServiceUnavailable)} × 503 ({duringOutage.Count(a => a.Code == "database-unavailable")} from the API, {duringOutage.Count(a => a.Code == "service-busy")} from HAProxy); first 201 {recovery.TotalMilliseconds:F0} ms after the server was back; health checks had both instances DOWN {bothDown.TotalMilliseconds:F0} ms after the stop and both UP by {bothUp.TotalMilliseconds:F0} ms after the start; {bookings.Count} bookings");

            Assert.InRange(bothDown, TimeSpan.Zero, DetectionLimit);

            Assert.NotEmpty(duringOutage);
            Assert.All(duringOutage, a =>
            {
                Assert.Equal(HttpStatusCode.ServiceUnavailable, a.Status);
                Assert.Equal("application/problem+json", a.ContentType);
                Assert.NotNull(a.RetryAfter);
            });
            Assert.All(bookings, b => Assert.Equal(HttpStatusCode.Created, b.Final!.Status));
            await AssertNothingConfirmedIsLostAsync(connectionString, place, bookings);
        }
        finally
        {
            foreach (var api in apis)
            {
                await api.DisposeAsync();
            }
        }
    }

    /// <summary>Rate limits out of the way: these tests are about failures, not budgets.</summary>
    private static Dictionary<string, string> HighLimits => new()
    {
        ["SLOTS_RATE_WRITES"] = "100000",
        ["SLOTS_RATE_READS"] = "100000",
    };

    private static async Task AssertNothingConfirmedIsLostAsync(string connectionString, int place, IReadOnlyCollection<Booking> bookings)
    {
        var confirmed = bookings.Select(b => b.Code).OfType<string>().ToArray();
        Assert.Equal(confirmed.Length, confirmed.Distinct().Count());
        var stored = await Ledger.ReservationsAsync(connectionString, place);
        Assert.All(confirmed, c => Assert.True(stored.ContainsKey(c), $"201 {c} is not in the database"));
        Assert.Equal(stored.Count, stored.Values.Distinct().Count());
        var (taken, shared) = await Ledger.SeatsAsync(connectionString, place);
        Assert.Equal(stored.Count, taken);
        Assert.Equal(0, shared);
    }
}
