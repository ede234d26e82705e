using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Sms.Tests.Infrastructure;

namespace Slots.Sms.Tests;

/// <summary>
/// The gateway took the SMS, then the sms_sent record failed (the database went away in between):
/// only the record is tried again, never the send. Found by the chaos soak (docs/reliability.md),
/// where PostgreSQL shutdowns made 59 SMS go out twice.
/// </summary>
public sealed class RecordAfterSendTests
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(60);

    private static readonly Dictionary<string, string?> QuickRetries = new()
    {
        // A failed try comes back fast, so a resend would show within the test's wait.
        ["Slots:Sms:RetryDelays:0"] = "00:00:00.200",
        ["Slots:Sms:MaxTries"] = "5",
    };

    [Fact]
    public async Task A_message_whose_consumer_lost_its_channel_before_the_send_is_not_sent_by_it()
    {
        // Found by the high-availability chaos soak: a RabbitMQ node died, the broker handed its
        // consumers' unacked messages to the other scheduler at once, and the first consumer still
        // sent the ones it had already taken: 17 SMS went out twice.
        var sender = new RecordingSender();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbitUri: null, sender);
        var delivery = world.Services.GetRequiredService<SmsDelivery>();
        var message = new SlotReserved(424242, "HANDB-ACK00", "+421905000001", "sk", "P", new DateOnly(2026, 11, 23), new TimeOnly(8, 0));

        await Assert.ThrowsAsync<HandedBackException>(() =>
            delivery.DeliverAsync(message, 1, TestContext.Current.CancellationToken, stillOurs: () => false));
        Assert.Empty(sender.Calls);
        Assert.Equal(0, await SentRecordsAsync(world));

        // The consumer that holds it now sends it, once.
        Assert.True(await delivery.DeliverAsync(message, 1, TestContext.Current.CancellationToken, stillOurs: () => true));
        Assert.Equal(1, sender.Calls.Single().Value);
    }

    [Fact]
    public async Task An_sms_whose_record_fails_after_the_send_is_sent_once()
    {
        var rabbit = await Rabbit.SharedAsync();
        var sender = new RecordingSender();
        FlakyRecordStore? store = null;
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender, QuickRetries,
            wrapStore: inner => store = new FlakyRecordStore(inner) { FailRecords = 3 });
        await world.BurstAsync(3);
        await world.DrainAsync(Patience);

        await world.StartConsumerAsync();
        await sender.WaitForAsync(3, Patience);
        await Poll.UntilAsync(async () => await SentRecordsAsync(world) == 3, Patience);
        await Poll.UntilAsync(async () => (await rabbit.CtlAsync("list_queues", "name", "messages")).Contains($"{world.Queue}\t0", StringComparison.Ordinal), Patience);
        await Task.Delay(1000); // a resend after the 200 ms retry delay would arrive now

        Assert.True(store!.RecordCalls > 3, "the record never failed, so the test proved nothing");
        Assert.Equal(3, sender.Calls.Count);
        Assert.All(sender.Calls.Values, n => Assert.Equal(1, n));
        Assert.Contains($"{world.Queue}.dead\t0", await rabbit.CtlAsync("list_queues", "name", "messages"));
    }

    [Fact]
    public async Task Without_RabbitMQ_an_sms_whose_record_fails_after_the_send_is_sent_once()
    {
        var sender = new RecordingSender();
        FlakyRecordStore? store = null;
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbitUri: null, sender, QuickRetries,
            wrapStore: inner => store = new FlakyRecordStore(inner) { FailRecords = 3 });
        await world.BurstAsync(3);

        await world.DrainAsync(Patience);
        await Task.Delay(400);
        await world.DrainAsync(Patience); // a second run finds nothing to send again

        Assert.True(store!.RecordCalls > 3, "the record never failed, so the test proved nothing");
        Assert.Equal(3, sender.Calls.Count);
        Assert.All(sender.Calls.Values, n => Assert.Equal(1, n));
        Assert.Equal(3, await SentRecordsAsync(world));
    }

    [Fact]
    public async Task An_sms_whose_record_never_succeeds_is_taken_as_sent_and_not_sent_again()
    {
        var rabbit = await Rabbit.SharedAsync();
        var sender = new RecordingSender();
        await using var world = await SmsWorld.StartAsync(Backend.Sqlite, rabbit.AmqpUri, sender,
            new Dictionary<string, string?>(QuickRetries) { ["Slots:Sms:RecordPatience"] = "00:00:01" },
            wrapStore: inner => new FlakyRecordStore(inner) { FailRecords = int.MaxValue });
        await world.BurstAsync(2);
        await world.DrainAsync(Patience);

        await world.StartConsumerAsync();
        await sender.WaitForAsync(2, Patience);
        // Acked once the record's patience ran out: neither requeued nor dead-lettered.
        await Poll.UntilAsync(async () => (await rabbit.CtlAsync("list_queues", "name", "messages")).Contains($"{world.Queue}\t0", StringComparison.Ordinal), Patience);
        await Task.Delay(1000);

        Assert.All(sender.Calls.Values, n => Assert.Equal(1, n));
        Assert.Equal(0, await SentRecordsAsync(world));
        Assert.Contains($"{world.Queue}.dead\t0", await rabbit.CtlAsync("list_queues", "name", "messages"));
    }

    private static Task<int> SentRecordsAsync(SmsWorld world) =>
        world.WithDbAsync(db => db.Database.SqlQueryRaw<int>("SELECT COUNT(*) AS \"Value\" FROM sms_sent WHERE status = 1").SingleAsync());
}
