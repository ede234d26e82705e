using System.Diagnostics;
using Slots.Sms.Tests.Infrastructure;
using Slots.Testing;

namespace Slots.Sms.Tests;

/// <summary>The same path on the PostgreSQL backend: its outbox and sms_sent adapters.</summary>
public sealed class PostgresSmsTests
{
    [Fact]
    public async Task Burst_on_PostgreSQL_sends_every_confirmation_once()
    {
        var rabbit = await Rabbit.SharedAsync();
        var sender = new RecordingSender();
        SmsWorld world;
        try
        {
            world = await SmsWorld.StartAsync(Backend.Postgres, rabbit.AmqpUri, sender, new Dictionary<string, string?>
            {
                ["Slots:Sms:Prefetch"] = "64",
            });
        }
        catch (PostgresUnavailableException ex)
        {
            throw Unavailable.Because(ex.Message);
        }
        await using var _ = world;
        await world.BurstAsync(500);

        var relay = Stopwatch.StartNew();
        await world.DrainAsync(TimeSpan.FromSeconds(60));
        relay.Stop();
        var consume = Stopwatch.StartNew();
        await world.StartConsumerAsync();
        await sender.WaitForAsync(500, TimeSpan.FromSeconds(60));
        consume.Stop();
        await Task.Delay(500);

        Rabbit.Report($"relay: 500 rows in {relay.Elapsed.TotalMilliseconds:F0} ms = {500 / relay.Elapsed.TotalSeconds:F0} messages/s (PostgreSQL)");
        Rabbit.Report($"consumer: 500 SMS in {consume.Elapsed.TotalMilliseconds:F0} ms = {500 / consume.Elapsed.TotalSeconds:F0} messages/s (PostgreSQL, prefetch 64)");
        Assert.Equal(500, sender.Sent.Count);
        Assert.All(sender.Sent.Values, n => Assert.Equal(1, n));
        Assert.Equal(0, await world.UnsentAsync());
    }
}
