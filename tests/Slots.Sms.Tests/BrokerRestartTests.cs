using Slots.Sms.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Sms.Tests;

/// <summary>The broker goes away in the middle of a burst and comes back: on a node of the test's own.</summary>
public sealed class BrokerRestartTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(90);

    [Fact]
    public async Task Broker_stopped_mid_burst_and_started_again_loses_nothing_and_doubles_nothing()
    {
        await using var rabbit = await Rabbit.OwnNodeAsync();
        var sender = new RecordingSender();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender, new Dictionary<string, string?>
        {
            ["Slots:Sms:RelayBatchSize"] = "50",
            ["Slots:Sms:Prefetch"] = "4",
        });
        // After 50 SMS the gateway holds every send until the broker is down: the queue still has
        // messages when it stops, and the sends in flight finish with no channel left to ack on.
        var brokerDown = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        sender.Behaviour = (_, _, ct) => sender.Sent.Count >= 50 ? brokerDown.Task.WaitAsync(ct) : Task.CompletedTask;
        await world.StartConsumerAsync();
        using var stop = new CancellationTokenSource();
        // The scheduler's trigger: the relay job every 100 ms, on its own, through everything below.
        var job = Task.Run(async () =>
        {
            while (!stop.IsCancellationRequested)
            {
                await world.Job.DrainAsync(CancellationToken.None);
                await Task.Delay(100);
            }
        });

        var first = world.BurstAsync(300);
        await sender.WaitForAsync(50, Patience);
        await rabbit.StopAsync();
        var sentBeforeStop = sender.Sent.Count;
        brokerDown.SetResult();
        await first;
        var second = await world.BurstAsync(200, offset: 300);
        var unsentWhileDown = await world.UnsentAsync();
        await Task.Delay(1000); // the relay keeps trying (and backing off) while the broker is down
        await rabbit.StartAsync();
        await sender.WaitForAsync(500, Patience);
        await stop.CancelAsync();
        await job;
        await Task.Delay(500); // anything doubled would arrive now

        Rabbit.Report($"broker stopped after {sentBeforeStop} SMS; {unsentWhileDown} outbox rows waited for it; all 500 out after the restart, gateway calls: {sender.Calls.Values.Sum()}");
        Assert.True(unsentWhileDown >= 200, $"only {unsentWhileDown} rows waited for the broker");
        Assert.True(sentBeforeStop < 100, $"{sentBeforeStop} SMS went out before the broker stopped");
        Assert.Equal(500, sender.Sent.Count);
        Assert.All(sender.Sent.Values, n => Assert.Equal(1, n));
        Assert.Equal(0, await world.UnsentAsync());
        Assert.Equal(200, second.Count);
    }
}
