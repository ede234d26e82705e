using System.Collections.Concurrent;
using System.Threading.RateLimiting;
using Microsoft.Extensions.Options;

namespace Slots.Sms;

/// <summary>
/// Sends one message exactly once as far as Slots can tell: skips it when sms_sent already holds
/// its id, waits for the gateway's rate, sends, then records the id. The one gap (the gateway took
/// it, the record did not make it) is closed by the Idempotency-Key the gateway gets. Shared by
/// the SMS consumer and the direct transport.
/// </summary>
public sealed class SmsDelivery(SmsSender sender, ISmsStore store, SmsRate rate, TimeProvider clock, SmsMetrics metrics)
{
    // Two copies of one message in this process at once (a relay republish): one sends, the other skips.
    private readonly ConcurrentDictionary<long, byte> _inFlight = new();

    /// <summary>True when sent now; false when it had been sent before (or another copy is being sent right now).</summary>
    public async Task<bool> DeliverAsync(SmsEvent message, int attempt, CancellationToken ct)
    {
        if (!_inFlight.TryAdd(message.Id, 0))
        {
            metrics.Duplicates.Add(1);
            return false;
        }
        try
        {
            if (await store.WasSentAsync(message.Id, ct))
            {
                metrics.Duplicates.Add(1);
                return false;
            }
            await rate.WaitAsync(ct);
            await sender.SendAsync(new OutgoingSms(message.Id, message.Phone, SmsTemplates.Render(message)), ct);
            // Not the caller's token: the gateway has it now, and the record must follow even when stopping.
            await store.RecordSentAsync(
                new SmsSendRecord(message.Id, message.Kind, message.Code, SmsSendStatus.Sent, attempt, clock.GetUtcNow().ToUnixTimeSeconds()),
                CancellationToken.None);
            metrics.Sent.Add(1);
            return true;
        }
        finally
        {
            _inFlight.TryRemove(message.Id, out _);
        }
    }

    /// <summary>Records that the message will not be sent (the direct transport's dead letter).</summary>
    public Task GiveUpAsync(SmsEvent message, int tries, CancellationToken ct)
    {
        metrics.DeadLettered.Add(1);
        return store.RecordSentAsync(
            new SmsSendRecord(message.Id, message.Kind, message.Code, SmsSendStatus.GaveUp, tries, clock.GetUtcNow().ToUnixTimeSeconds()), ct);
    }
}

/// <summary>The gateway's allowed rate as a token bucket: MessagesPerSecond tokens a second, bursts up to one second's worth.</summary>
public sealed class SmsRate : IDisposable
{
    private readonly TokenBucketRateLimiter _bucket;

    public SmsRate(IOptions<SmsOptions> options)
    {
        var perSecond = Math.Max(1, options.Value.MessagesPerSecond);
        // Refill in tenths of a second so the rate stays smooth instead of a burst at each second.
        var perTick = Math.Max(1, perSecond / 10);
        _bucket = new TokenBucketRateLimiter(new TokenBucketRateLimiterOptions
        {
            TokenLimit = perSecond,
            TokensPerPeriod = perTick,
            ReplenishmentPeriod = TimeSpan.FromSeconds((double)perTick / perSecond),
            QueueLimit = int.MaxValue,
            QueueProcessingOrder = QueueProcessingOrder.OldestFirst,
            AutoReplenishment = true,
        });
    }

    public async ValueTask WaitAsync(CancellationToken ct)
    {
        using var lease = await _bucket.AcquireAsync(1, ct);
        if (!lease.IsAcquired)
        {
            throw new InvalidOperationException("The SMS rate limiter refused a permit although its queue is unbounded.");
        }
    }

    public void Dispose() => _bucket.Dispose();
}
