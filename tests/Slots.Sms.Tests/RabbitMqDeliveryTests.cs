using System.Diagnostics;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Sms.RabbitMq;
using Slots.Sms.Tests.Infrastructure;

namespace Slots.Sms.Tests;

/// <summary>Relay → RabbitMQ → consumer → sender, against a real RabbitMQ node.</summary>
public sealed class RabbitMqDeliveryTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    [Fact]
    public async Task Burst_of_1000_reservations_sends_1000_confirmations_each_once()
    {
        var rabbit = await Rabbit.SharedAsync();
        var sender = new RecordingSender();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender, new Dictionary<string, string?>
        {
            ["Slots:Sms:Prefetch"] = "64",
        });
        var codes = await world.BurstAsync(1000);
        Assert.Equal(1000, await world.UnsentAsync());

        var relay = Stopwatch.StartNew();
        await world.DrainAsync(Patience);
        relay.Stop();
        var consume = Stopwatch.StartNew();
        await world.StartConsumerAsync();
        await sender.WaitForAsync(1000, Patience);
        consume.Stop();

        Rabbit.Report($"relay: 1000 outbox rows published and confirmed in {relay.Elapsed.TotalMilliseconds:F0} ms = {1000 / relay.Elapsed.TotalSeconds:F0} messages/s (SQLite)");
        Rabbit.Report($"consumer: 1000 SMS sent and recorded in {consume.Elapsed.TotalMilliseconds:F0} ms = {1000 / consume.Elapsed.TotalSeconds:F0} messages/s (SQLite, prefetch 64)");
        await Task.Delay(500); // anything doubled would arrive now
        Assert.Equal(1000, sender.Sent.Count);
        Assert.All(sender.Sent.Values, n => Assert.Equal(1, n));
        Assert.Equal(codes.Order(), sender.Messages.Select(m => codes.Single(c => m.Text.EndsWith("Kod: " + c, StringComparison.Ordinal))).Order());
        Assert.Equal(1000, await world.WithDbAsync(db => db.Database.SqlQueryRaw<int>("SELECT COUNT(*) AS \"Value\" FROM sms_sent").SingleAsync()));
        var queues = await rabbit.CtlAsync("list_queues", "name", "messages_ready", "messages_unacknowledged");
        Assert.Contains($"{world.Queue}\t0\t0", queues);
    }

    [Fact]
    public async Task Consumer_killed_mid_message_gets_it_redelivered_and_it_is_still_sent_once()
    {
        var rabbit = await Rabbit.SharedAsync();
        var sender = new RecordingSender();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender);
        await world.BurstAsync(5);
        await world.DrainAsync(Patience);
        var firstSendStarted = new TaskCompletionSource<long>(TaskCreationOptions.RunContinuationsAsynchronously);
        sender.Behaviour = async (sms, call, ct) =>
        {
            if (firstSendStarted.TrySetResult(sms.MessageId))
            {
                await Task.Delay(Timeout.Infinite, ct); // the gateway hangs until the consumer dies
            }
        };

        var doomed = await world.StartConsumerAsync();
        var stuck = await firstSendStarted.Task.WaitAsync(Patience);
        await doomed.StopAsync(CancellationToken.None); // the consumer goes away without acking the message it is sending
        doomed.Dispose();
        Assert.False(sender.Sent.ContainsKey(stuck));
        await world.StartConsumerAsync();
        await sender.WaitForAsync(5, Patience);

        Assert.Equal(2, sender.Calls[stuck]);
        Assert.Equal(1, sender.Sent[stuck]);
        Assert.All(sender.Sent.Values, n => Assert.Equal(1, n));
    }

    [Fact]
    public async Task Message_relayed_twice_is_sent_once()
    {
        var rabbit = await Rabbit.SharedAsync();
        var sender = new RecordingSender();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender);
        await world.BurstAsync(20);
        await world.DrainAsync(Patience);
        await world.StartConsumerAsync();
        await sender.WaitForAsync(20, Patience);

        // The relay died between the broker's confirm and marking the rows: it publishes them all again.
        Assert.Equal(20, await world.ForgetEverySendAsync());
        await world.DrainAsync(Patience);
        await Poll.UntilAsync(async () => (await rabbit.CtlAsync("list_queues", "name", "messages")).Contains($"{world.Queue}\t0", StringComparison.Ordinal), Patience);

        Assert.Equal(20, sender.Sent.Count);
        Assert.All(sender.Sent.Values, n => Assert.Equal(1, n));
        Assert.All(sender.Calls.Values, n => Assert.Equal(1, n)); // the copies never reached the gateway
    }

    [Fact]
    public async Task Gateway_failing_for_a_while_gets_every_message_after_back_off_retries()
    {
        var rabbit = await Rabbit.SharedAsync();
        await using var gateway = await FakeGateway.StartAsync();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender: null, new Dictionary<string, string?>
        {
            ["Slots:Sms:Sender"] = "Http",
            ["Slots:Sms:Http:Url"] = gateway.Url.ToString(),
            ["Slots:Sms:Http:Username"] = "slots",
            ["Slots:Sms:Http:Password"] = "secret",
            ["Slots:Sms:Http:Retries"] = "1",
            ["Slots:Sms:Http:RetryDelay"] = "00:00:00.050",
            ["Slots:Sms:Http:BreakDuration"] = "00:00:01",
            ["Slots:Sms:RetryDelays:0"] = "00:00:01",
            ["Slots:Sms:RetryDelays:1"] = "00:00:02",
            ["Slots:Sms:MaxTries"] = "10",
        });
        await world.BurstAsync(30);
        gateway.FailFor(TimeSpan.FromSeconds(2));

        await world.DrainAsync(Patience);
        await world.StartConsumerAsync();
        await gateway.WaitForAsync(30, Patience);

        Assert.True(gateway.Failures >= 30, $"the gateway refused only {gateway.Failures} requests");
        Assert.Equal(30, gateway.Delivered.Count);
        Assert.Equal(0, gateway.Repeats);
        Assert.All(gateway.Authorizations, a => Assert.Equal("Basic c2xvdHM6c2VjcmV0", a));
        var queues = await rabbit.CtlAsync("list_queues", "name", "messages");
        Assert.Contains($"{world.Queue}.dead\t0", queues);
    }

    [Fact]
    public async Task Gateway_always_failing_for_one_message_dead_letters_it_and_sends_the_others()
    {
        var rabbit = await Rabbit.SharedAsync();
        await using var gateway = await FakeGateway.StartAsync();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender: null, new Dictionary<string, string?>
        {
            ["Slots:Sms:Sender"] = "Http",
            ["Slots:Sms:Http:Url"] = gateway.Url.ToString(),
            ["Slots:Sms:Http:Retries"] = "0",
            ["Slots:Sms:RetryDelays:0"] = "00:00:00.200",
            ["Slots:Sms:RetryDelays:1"] = "00:00:00.400",
            ["Slots:Sms:MaxTries"] = "3",
        });
        await world.BurstAsync(10);
        // Ids come in blocks per commit, so a burst that spans commits leaves gaps: take the fifth id there is.
        var doomed = (await world.MessageIdsAsync()).Order().ElementAt(4);
        gateway.AlwaysFail(doomed.ToString(System.Globalization.CultureInfo.InvariantCulture));

        await world.DrainAsync(Patience);
        await world.StartConsumerAsync();
        await gateway.WaitForAsync(9, Patience);
        var deadLetters = world.Services.GetRequiredService<SmsDeadLetters>();
        IReadOnlyList<DeadLetter> dead = [];
        await Poll.UntilAsync(async () => (dead = await deadLetters.ListAsync(10, CancellationToken.None)).Count == 1, Patience);

        var letter = Assert.Single(dead);
        Assert.Equal(doomed.ToString(System.Globalization.CultureInfo.InvariantCulture), letter.MessageId);
        Assert.Equal(3, letter.Tries);
        Assert.Equal("reserved", letter.Kind);
        Assert.Equal("GatewayUnavailableException 503", letter.Error);
        Assert.Equal(3, gateway.Failures);
        Assert.DoesNotContain(letter.MessageId, gateway.Delivered.Keys);

        var listed = new StringWriter();
        Assert.Equal(0, await SmsCommands.RunAsync(["sms", "dead-letters", "list"], world.Services, listed, CancellationToken.None));
        Assert.Contains($"{letter.MessageId}\treserved\t{letter.Code}\ttries=3\tGatewayUnavailableException 503", listed.ToString());
        Assert.DoesNotContain("+421", listed.ToString(), StringComparison.Ordinal);

        // A person fixes the cause and replays the dead letters.
        gateway.Heal(letter.MessageId);
        var replayed = new StringWriter();
        Assert.Equal(0, await SmsCommands.RunAsync(["sms", "dead-letters", "replay", letter.MessageId], world.Services, replayed, CancellationToken.None));
        Assert.StartsWith("1 message(s) moved back", replayed.ToString());
        await gateway.WaitForAsync(10, Patience);
        Assert.Empty(await deadLetters.ListAsync(10, CancellationToken.None));
        Assert.Equal(0, gateway.Repeats);
    }

    // Seen after a queue leader's loss (RabbitMqClusterTests, 2026-11-26): the relay's new channel had
    // every publish refused for the test's 90 s, and the relay asked again at once, 791 waves, instead of
    // backing off and reconnecting. Here a policy that lets the queue hold nothing refuses every publish.
    [Fact]
    public async Task A_wave_the_queue_refuses_whole_makes_the_relay_back_off_and_its_rows_go_once_the_queue_takes_them()
    {
        var rabbit = await Rabbit.SharedAsync();
        var sender = new RecordingSender();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender);
        await world.BurstAsync(1);
        await world.DrainAsync(Patience); // the queue is declared and the relay's channel open
        var policy = $"full-{world.Queue}";
        await rabbit.CtlAsync("set_policy", "--apply-to", "queues", policy, $"^{world.Queue}$", """{"max-length":0,"overflow":"reject-publish"}""");
        try
        {
            await world.BurstAsync(10, offset: 1);
            // The policy reaches the queue in its own time: ask until a wave is refused.
            var broke = await Poll.TryUntilAsync(async () =>
            {
                await world.Relay.RelayAsync(CancellationToken.None);
                return world.Relay.RetryPending;
            }, TimeSpan.FromSeconds(30));
            Assert.True(broke, "a wholly refused wave never counted as a break; the host logged:\n" + string.Join("\n", world.Log.Lines.TakeLast(20)));
            Assert.Contains(world.Log.Lines, line => line.Contains("nacked it", StringComparison.Ordinal));
            Assert.Contains(world.Log.Lines, line => line.Contains("SMS transport failed", StringComparison.Ordinal));
            Assert.Equal(10, await world.UnsentAsync());
        }
        finally
        {
            await rabbit.CtlAsync("clear_policy", policy);
        }

        await world.DrainAsync(Patience);
        await world.StartConsumerAsync();
        await sender.WaitForAsync(11, Patience);
        await Task.Delay(500); // anything doubled would arrive now
        Assert.Equal(11, sender.Sent.Count);
        Assert.All(sender.Sent.Values, n => Assert.Equal(1, n));
    }

    [Fact]
    public async Task The_relay_fills_the_queue_only_to_its_lead_and_the_outbox_keeps_the_rest_until_the_consumer_takes_them()
    {
        var rabbit = await Rabbit.SharedAsync();
        var sender = new RecordingSender();
        // 50 messages a second, 0.4 s ahead: the queue holds 20 for each consumer, and 20 while none reads it.
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender, new Dictionary<string, string?>
        {
            ["Slots:Sms:MessagesPerSecond"] = "50",
            ["Slots:Sms:QueueAhead"] = "00:00:00.4",
        });
        await world.BurstAsync(100);

        Assert.Equal(20, await world.Job.DrainAsync(CancellationToken.None));
        Assert.Equal(0, await world.Job.DrainAsync(CancellationToken.None));
        Assert.Equal(80, await world.UnsentAsync());
        Assert.Equal(20, (int)await Rabbit.ReadyAsync(world.Services.GetRequiredService<SmsBroker>()));
        Assert.False(world.Relay.RetryPending);

        await world.StartConsumerAsync();
        var limit = DateTime.UtcNow + Patience;
        var mostReady = 0;
        while (sender.Sent.Count < 100)
        {
            Assert.True(DateTime.UtcNow < limit, $"{sender.Sent.Count} of 100 sent, {await world.UnsentAsync()} rows unsent");
            await world.Job.DrainAsync(CancellationToken.None);
            mostReady = Math.Max(mostReady, (int)await Rabbit.ReadyAsync(world.Services.GetRequiredService<SmsBroker>()));
            await Task.Delay(50);
        }
        Assert.InRange(mostReady, 0, 20); // one consumer: never more than its lead ready
        Assert.Equal(0, await world.UnsentAsync());
        await Task.Delay(500); // anything doubled would arrive now
        Assert.Equal(100, sender.Sent.Count);
        Assert.All(sender.Sent.Values, n => Assert.Equal(1, n));
    }
}
