using System.Diagnostics;
using Slots.Sms.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Sms.Tests;

/// <summary>
/// The broker's node freezes (SIGSTOP of its Erlang VM) with the relay's connection open: the
/// socket stays up and no confirm ever comes. On a node of the test's own.
/// </summary>
public sealed class FrozenBrokerTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Theory]
    // Without a lead the relay publishes at once and waits for the wave's confirms; with one it first asks the queue how
    // full it is, and that answer is what never comes.
    [InlineData("00:00:00", "did not confirm the wave within 2 s")]
    [InlineData("00:00:10", "did not say how full the work queue is within 2 s")]
    public async Task A_frozen_broker_ends_the_relay_run_after_the_confirm_timeout_and_its_rows_go_once_it_thaws(string queueAhead, string logged)
    {
        await using var rabbit = await Rabbit.OwnNodeAsync();
        var sender = new RecordingSender();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender, new Dictionary<string, string?>
        {
            ["Slots:Sms:ConfirmTimeout"] = "00:00:02",
            ["Slots:Sms:RelayMaxRunTime"] = "00:00:05",
            ["Slots:Sms:QueueAhead"] = queueAhead,
        });
        // The relay connects and its channel is open when the node stops answering.
        await world.BurstAsync(10);
        await world.DrainAsync(Patience);
        await world.BurstAsync(10, offset: 10);

        await rabbit.FreezeVmAsync();
        int relayed;
        TimeSpan took;
        try
        {
            var run = Stopwatch.StartNew();
            // The client waits for a confirm without end, and its heartbeat notices a silent peer only
            // after minutes: without the timeout this run, and every SMS behind it, waits that long.
            relayed = await world.Job.DrainAsync(CancellationToken.None).WaitAsync(TimeSpan.FromSeconds(40));
            took = run.Elapsed;
        }
        finally
        {
            await rabbit.ThawVmAsync();
        }
        Rabbit.Report($"relay run against the frozen node ended after {took.TotalSeconds:F1} s (ConfirmTimeout 2 s, RelayMaxRunTime 5 s)");
        Assert.Equal(0, relayed);
        Assert.Equal(10, await world.UnsentAsync());
        Assert.Contains(world.Log.Lines, line => line.Contains(logged, StringComparison.Ordinal));

        // Thawed, the node may still take what was in its socket: those copies and the rows sent
        // again after the reconnect reach the consumer, which sends each SMS once.
        await world.DrainAsync(Patience);
        await world.StartConsumerAsync();
        await sender.WaitForAsync(20, Patience);
        await Task.Delay(500); // anything doubled would arrive now
        Assert.Equal(20, sender.Sent.Count);
        Assert.All(sender.Sent.Values, n => Assert.Equal(1, n));
    }
}
