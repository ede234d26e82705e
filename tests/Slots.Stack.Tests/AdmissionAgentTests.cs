using System.Globalization;
using Slots.Stack.Tests.Infrastructure;
using Slots.Testing;
using Slots.Topology.Run;

namespace Slots.Stack.Tests;

/// <summary>
/// HAProxy asks each instance's admission agent (Slots:ConcurrencyLimit:Agent) how many requests to send it, so the
/// excess of a crowd waits and is turned away in HAProxy, not read and refused by the instance.
/// </summary>
[Collection(SerialStackTests.Name)]
public sealed class AdmissionAgentTests(SharedApis shared)
{
    [Fact]
    public async Task HAProxy_sends_an_instance_no_more_than_its_limit_reported_by_its_agent_and_turns_the_rest_away_itself_with_429()
    {
        shared.SkipIfUnavailable();
        var ct = TestContext.Current.CancellationToken;
        var agent = ChildProcess.FreePort();
        var settings = StackProcesses.ApiSettings(shared.ConnectionString);
        settings["Slots:ConcurrencyLimit:Agent"] = $"127.0.0.1:{agent}";
        // A limit that cannot move, 3 in flight; the agent adds its headroom of 4 for the reads the limit does not guard.
        settings["Slots:ConcurrencyLimit:MinLimit"] = "3";
        settings["Slots:ConcurrencyLimit:InitialLimit"] = "3";
        settings["Slots:ConcurrencyLimit:MaxLimit"] = "3";
        await using var api = await ApiProcess.StartAsync(settings, StackProcesses.LogFolder, "agent-api", ct);
        // The configured maxconn (256), the queue's timeout and its fixed length far above what this test reaches: only
        // the agent's maxconn and the rule that sheds a queue as long as what is being served keep requests away.
        await using var haproxy = await StackProcesses.StartHaproxyAsync([api], new Dictionary<string, string>
        {
            ["SLOTS_API_1_AGENT"] = agent.ToString(CultureInfo.InvariantCulture),
            ["SLOTS_QUEUE_TIMEOUT"] = "10s",
            ["SLOTS_SHED_QUEUE"] = "100000",
        }, "agent", ct);
        await haproxy.WaitAsync(s => s["api1"].Limit == 7, TimeSpan.FromSeconds(10), ct);
        var place = await Places.CreateAsync(shared.Apis, capacity: 400);
        using var clients = new Clients(haproxy, 200);
        var before = (await haproxy.ServersAsync(ct))["api1"].Sessions;

        var bookings = Enumerable.Range(0, 400).Select(i => new Booking(place, Places.BookableDay, Places.Times[i % 6], Places.NextPerson())).ToArray();
        await Task.WhenAll(bookings.Select((b, i) => b.SendAsync(clients[i % 200])));

        var sent = (await haproxy.ServersAsync(ct))["api1"].Sessions - before;
        var (admitted, turnedAway) = CrowdAnswers.AdmittedOrTurnedAwayAtOnce(bookings);
        Figures.Report($"admission agent: 400 at once -> {admitted.Length} × 201, {turnedAway.Length} × 429; {sent} sent to the instance, {400 - sent} turned away by HAProxy; slowest 429 {turnedAway.Max(a => a.Latency).TotalMilliseconds:F0} ms");

        // Part of the crowd never reached the instance: HAProxy held it to the agent's 7 at a time and shed the queue.
        Assert.InRange(sent, admitted.Length, 399);
        var stored = await Ledger.ReservationsAsync(shared.ConnectionString, place);
        Assert.Equal(bookings.Select(b => b.Code).OfType<string>().Order(), stored.Keys.Order());
    }
}
