using System.Collections.Concurrent;
using System.Threading.RateLimiting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Slots.Sms;

/// <summary>
/// Sends one message exactly once as far as Slots can tell: waits for the gateway's rate, claims it
/// in sms_sent (skipping it when it was sent before, or when another consumer holds a fresh claim),
/// sends, then records the send in place of the claim. The claim comes after the rate's wait, so a
/// consumer killed while its messages queue for the rate leaves none of them claimed (a claim left
/// behind holds its message back for ClaimLease). The claim is what keeps two copies of one
/// message apart when two processes consume them at the same moment (a relay that published a row
/// again because its "sent" mark was lost in a database failover). Once the gateway took it, only
/// the record is tried again (a database restart must not repeat the send); a record that still
/// fails after RecordPatience, or a process killed between send and record, is left to the
/// Idempotency-Key the gateway gets. Shared by the SMS consumer and the direct transport.
/// </summary>
public sealed partial class SmsDelivery(
    SmsSender sender,
    ISmsStore store,
    SmsRate rate,
    TimeProvider clock,
    SmsMetrics metrics,
    IOptions<SmsOptions> options,
    ILogger<SmsDelivery> logger)
{
    private static readonly TimeSpan FirstRecordRetry = TimeSpan.FromMilliseconds(200);
    private static readonly TimeSpan LongestRecordRetry = TimeSpan.FromSeconds(5);

    // Two copies of one message in this process at once (a relay republish): one sends, the other skips.
    private readonly ConcurrentDictionary<long, byte> _inFlight = new();

    /// <summary>
    /// True when sent now; false when it had been sent before (or another copy is being sent right now
    /// in this process). Throws <see cref="SmsHeldElsewhereException"/> when another process holds a
    /// fresh claim on it: the caller asks again later, and then finds it sent or the claim run out.
    /// <paramref name="stillOurs"/> is asked just before the send: a consumer whose channel closed meanwhile
    /// (its RabbitMQ node died) no longer owns the message, which the broker has already handed to another
    /// consumer; sending it too would send it twice. Then nothing is sent, the claim is given up and
    /// <see cref="HandedBackException"/> is thrown.
    /// </summary>
    public async Task<bool> DeliverAsync(SmsEvent message, int attempt, CancellationToken ct, Func<bool>? stillOurs = null)
    {
        if (!_inFlight.TryAdd(message.Id, 0))
        {
            metrics.Duplicates.Add(1);
            return false;
        }
        try
        {
            await rate.WaitAsync(ct);
            var claim = new SmsClaim(message.Id, message.Kind, message.Code, Guid.NewGuid().ToString("N"), clock.GetUtcNow().ToUnixTimeSeconds());
            switch (await store.ClaimAsync(claim, (long)options.Value.ClaimLease.TotalSeconds, ct))
            {
                case SmsClaimResult.Sent:
                    metrics.Duplicates.Add(1);
                    return false;
                case SmsClaimResult.HeldElsewhere:
                    throw new SmsHeldElsewhereException(message.Id);
            }
            try
            {
                if (stillOurs is not null && !stillOurs())
                {
                    throw new HandedBackException(message.Id);
                }
                await sender.SendAsync(new OutgoingSms(message.Id, message.Phone, SmsTemplates.Render(message, options.Value.PublicUrl)), ct);
            }
            catch (Exception)
            {
                // Not sent: the next copy (a retry, or the one the broker handed to another consumer) may claim it at once.
                await ReleaseQuietlyAsync(claim);
                throw;
            }
            metrics.Sent.Add(1);
            await RecordAfterSendAsync(
                new SmsSendRecord(message.Id, message.Kind, message.Code, SmsSendStatus.Sent, attempt, clock.GetUtcNow().ToUnixTimeSeconds()));
            return true;
        }
        finally
        {
            _inFlight.TryRemove(message.Id, out _);
        }
    }

    /// <summary>A release that fails leaves the claim to run out (ClaimLease): the message is late, never sent twice.</summary>
    private async Task ReleaseQuietlyAsync(SmsClaim claim)
    {
        try
        {
            await store.ReleaseAsync(claim, CancellationToken.None);
        }
        catch (Exception ex)
        {
            LogReleaseFailed(logger, claim.MessageId, ex.GetType().Name);
        }
    }

    [LoggerMessage(EventId = 5032, Level = LogLevel.Warning, Message = "SMS {MessageId} was not sent and its claim could not be given up ({Error}); it is sent once the claim runs out")]
    private static partial void LogReleaseFailed(ILogger logger, long messageId, string error);

    /// <summary>
    /// Writes the record of a send the gateway already took, retrying with back-off for up to
    /// RecordPatience. Never throws: a failure here must not reach the caller's retry, which would
    /// send again. Not the caller's token either: the record must follow the send even when stopping.
    /// </summary>
    private async Task RecordAfterSendAsync(SmsSendRecord record)
    {
        var giveUpAt = clock.GetUtcNow() + options.Value.RecordPatience;
        var wait = FirstRecordRetry;
        for (var attempt = 1; ; attempt++)
        {
            try
            {
                await store.RecordSentAsync(record, CancellationToken.None);
                return;
            }
            // Whatever broke the record (a database restarting, a pool exhausted, a timeout), the
            // send happened: retrying the record is always right, rethrowing would resend.
            catch (Exception ex)
            {
                if (clock.GetUtcNow() + wait > giveUpAt)
                {
                    metrics.Unrecorded.Add(1);
                    LogUnrecorded(logger, record.MessageId, attempt, ex.GetType().Name);
                    return;
                }
                LogRecordRetrying(logger, record.MessageId, attempt, ex.GetType().Name, wait.TotalSeconds);
            }
            await Task.Delay(wait, clock);
            wait = TimeSpan.FromTicks(Math.Min(wait.Ticks * 2, LongestRecordRetry.Ticks));
        }
    }

    [LoggerMessage(EventId = 5030, Level = LogLevel.Warning, Message = "SMS {MessageId} sent, but its record failed on try {Try} ({Error}); recording again in {Seconds} s")]
    private static partial void LogRecordRetrying(ILogger logger, long messageId, int @try, string error, double seconds);

    [LoggerMessage(EventId = 5031, Level = LogLevel.Error, Message = "SMS {MessageId} sent, but its record failed {Tries} times ({Error}); taken as sent without a record, the gateway's Idempotency-Key guards a redelivery")]
    private static partial void LogUnrecorded(ILogger logger, long messageId, int tries, string error);

    /// <summary>Records that the message will not be sent (the direct transport's dead letter).</summary>
    public Task GiveUpAsync(SmsEvent message, int tries, CancellationToken ct)
    {
        metrics.DeadLettered.Add(1);
        return store.RecordSentAsync(
            new SmsSendRecord(message.Id, message.Kind, message.Code, SmsSendStatus.GaveUp, tries, clock.GetUtcNow().ToUnixTimeSeconds()), ct);
    }
}

/// <summary>The message was not sent: another process holds a fresh claim on it and may be sending it now.</summary>
public sealed class SmsHeldElsewhereException(long messageId)
    : Exception($"SMS {messageId} is claimed by another consumer.");

/// <summary>The message was not sent: the consumer that held it lost its channel, and the broker hands it to another.</summary>
public sealed class HandedBackException(long messageId)
    : Exception($"SMS {messageId} was handed back to the broker before it was sent.");

/// <summary>The gateway's allowed rate as a token bucket: MessagesPerSecond tokens a second, bursts up to one second's worth.</summary>
public sealed class SmsRate : IDisposable
{
    private readonly RateLimiter _bucket;

    public SmsRate(IOptions<SmsOptions> options)
        : this(Bucket(Math.Max(1, options.Value.MessagesPerSecond)))
    {
    }

    /// <summary>Permits from the given limiter (tests hold a send back at the rate with it).</summary>
    public SmsRate(RateLimiter limiter) => _bucket = limiter;

    private static TokenBucketRateLimiter Bucket(int perSecond)
    {
        // Refill in tenths of a second so the rate stays smooth instead of a burst at each second.
        var perTick = Math.Max(1, perSecond / 10);
        return new TokenBucketRateLimiter(new TokenBucketRateLimiterOptions
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
