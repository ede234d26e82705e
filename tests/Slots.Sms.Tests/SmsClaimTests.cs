using System.Threading.RateLimiting;
using Microsoft.Extensions.DependencyInjection;
using Slots.Sms.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Sms.Tests;

/// <summary>
/// Two processes holding a copy of one message at the same moment send it once: the copies meet at
/// the message's claim in sms_sent (PostgreSQL, the backend several schedulers share).
/// </summary>
public sealed class SmsClaimTests
{
    private static CancellationToken Ct => TestContext.Current.CancellationToken;

    private static SlotReserved Message(long id) =>
        new(id, "CLAIM-00001", "+421905000002", "sk", "P", new DateOnly(2026, 11, 23), new TimeOnly(8, 0));

    private static async Task<SmsWorld> PostgresAsync(RecordingSender sender)
    {
        try
        {
            return await SmsWorld.StartAsync(Backend.Postgres, rabbitUri: null, sender);
        }
        catch (PostgresUnavailableException ex)
        {
            throw Unavailable.Because(ex.Message);
        }
    }

    /// <summary>A second scheduler process: its own delivery (and in-memory guard) over the same database.</summary>
    private static SmsDelivery AnotherProcess(SmsWorld world) => ActivatorUtilities.CreateInstance<SmsDelivery>(world.Services);

    [Fact]
    public async Task Two_copies_consumed_by_two_schedulers_at_once_after_a_failover_are_sent_once()
    {
        // Found by the high-availability chaos soak: around a primary's loss the relay published some
        // outbox rows twice (their "sent" mark was lost), both schedulers consumed a copy in the same
        // millisecond, both found no sms_sent record and both sent: 8 SMS went out twice.
        var sender = new RecordingSender();
        var started = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var finish = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        sender.Behaviour = async (_, call, _) =>
        {
            if (call == 1)
            {
                started.TrySetResult();
                await finish.Task;
            }
        };
        await using var world = await PostgresAsync(sender);
        var first = world.Services.GetRequiredService<SmsDelivery>();
        var second = AnotherProcess(world);
        var message = Message(515151);

        var sending = first.DeliverAsync(message, 1, Ct);
        await started.Task.WaitAsync(TimeSpan.FromSeconds(10), Ct);
        await Assert.ThrowsAsync<SmsHeldElsewhereException>(() => second.DeliverAsync(message, 1, Ct));
        finish.SetResult();
        Assert.True(await sending);

        // Asked again later (the consumer moved its copy to the delay queue): sent already.
        Assert.False(await second.DeliverAsync(message, 1, Ct));
        Assert.Equal(1, sender.Calls[message.Id]);
        Assert.Equal(1, sender.Sent[message.Id]);
    }

    [Fact]
    public async Task A_send_that_failed_gives_its_claim_up_so_the_next_copy_sends_at_once()
    {
        var sender = new RecordingSender
        {
            Behaviour = (_, call, _) => call == 1 ? throw new GatewayUnavailableException(503) : Task.CompletedTask,
        };
        await using var world = await PostgresAsync(sender);
        var message = Message(525252);

        await Assert.ThrowsAsync<GatewayUnavailableException>(() => world.Services.GetRequiredService<SmsDelivery>().DeliverAsync(message, 1, Ct));
        Assert.True(await AnotherProcess(world).DeliverAsync(message, 2, Ct));

        Assert.Equal(1, sender.Sent[message.Id]);
    }

    [Fact]
    public async Task A_message_waiting_for_the_gateways_rate_is_not_claimed_yet()
    {
        // Found by the chaos soak: a scheduler SIGKILLed while up to Prefetch messages queued for the
        // rate left every one of them claimed, and each went out only when its claim ran out, 3 minutes late.
        var sender = new RecordingSender();
        await using var world = await PostgresAsync(sender);
        using var gate = new ConcurrencyLimiter(new ConcurrencyLimiterOptions { PermitLimit = 1, QueueLimit = 8 });
        using var rate = new SmsRate(gate);
        var waiting = ActivatorUtilities.CreateInstance<SmsDelivery>(world.Services, rate);
        var message = Message(555555);

        var held = await gate.AcquireAsync(1, Ct); // the rate's one permit, taken: the delivery queues behind it
        var delivering = waiting.DeliverAsync(message, 1, Ct);
        await Poll.UntilAsync(() => Task.FromResult(gate.GetStatistics()!.CurrentQueuedCount == 1), TimeSpan.FromSeconds(10), every: TimeSpan.FromMilliseconds(10));

        // Another scheduler finds the message unclaimed while the first waits for the rate, and sends it.
        Assert.True(await AnotherProcess(world).DeliverAsync(message, 1, Ct));
        held.Dispose();
        Assert.False(await delivering); // found sent once its permit came
        Assert.Equal(1, sender.Sent[message.Id]);
    }

    [Fact]
    public async Task A_claim_whose_holder_died_is_taken_over_once_its_lease_ran_out_and_not_before()
    {
        var sender = new RecordingSender();
        await using var world = await PostgresAsync(sender);
        var store = world.Services.GetRequiredService<ISmsStore>();
        var lease = (long)new SmsOptions().ClaimLease.TotalSeconds;
        var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        var fresh = Message(535353);
        var stale = Message(545454);

        // Holders that died after claiming: one a moment ago, one longer ago than the lease.
        Assert.Equal(SmsClaimResult.Claimed, await store.ClaimAsync(new SmsClaim(fresh.Id, fresh.Kind, fresh.Code, "dead-1", now - 5), lease, Ct));
        Assert.Equal(SmsClaimResult.Claimed, await store.ClaimAsync(new SmsClaim(stale.Id, stale.Kind, stale.Code, "dead-2", now - lease - 5), lease, Ct));
        // A release by anyone but the holder changes nothing.
        await store.ReleaseAsync(new SmsClaim(fresh.Id, fresh.Kind, fresh.Code, "someone-else", now), Ct);

        var delivery = world.Services.GetRequiredService<SmsDelivery>();
        await Assert.ThrowsAsync<SmsHeldElsewhereException>(() => delivery.DeliverAsync(fresh, 1, Ct));
        Assert.True(await delivery.DeliverAsync(stale, 1, Ct));
        Assert.False(sender.Calls.ContainsKey(fresh.Id));
        Assert.Equal(1, sender.Sent[stale.Id]);
        Assert.True(await store.WasSentAsync(stale.Id, Ct));
        Assert.False(await store.WasSentAsync(fresh.Id, Ct));
    }
}
