using System.Collections.Concurrent;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Slots.Sms;

/// <summary>
/// The embedded default, without RabbitMQ: the relay hands each message straight to the sender
/// through the same <see cref="SmsDelivery"/> (sms_sent, rate limit) the consumer uses. A failed
/// send keeps its row unsent and is tried again after the same delays the delay queues use; after
/// the last try it is recorded as given up (sms_sent status 2) and logged by message id.
/// </summary>
public sealed partial class DirectRelayTransport(
    SmsDelivery delivery,
    TimeProvider clock,
    IOptions<SmsOptions> options,
    ILogger<DirectRelayTransport> logger) : IOutboxTransport
{
    private readonly ConcurrentDictionary<long, (int Tries, DateTimeOffset NextTry)> _failed = new();

    public async Task<HandOver> HandOverAsync(IReadOnlyList<SmsEvent> wave, CancellationToken ct)
    {
        var accepted = new ConcurrentBag<long>();
        var parallel = new ParallelOptions { MaxDegreeOfParallelism = Math.Max(1, (int)options.Value.Prefetch), CancellationToken = ct };
        await Parallel.ForEachAsync(wave, parallel, async (message, token) =>
        {
            var before = _failed.GetValueOrDefault(message.Id);
            if (before.NextTry > clock.GetUtcNow())
            {
                return; // still waiting for its next try; later rows of its reservation wait too
            }
            var attempt = before.Tries + 1;
            try
            {
                await delivery.DeliverAsync(message, attempt, token);
                _failed.TryRemove(message.Id, out _);
                accepted.Add(message.Id);
            }
            catch (SmsHeldElsewhereException)
            {
                // Another process is sending it: look again after the first retry's delay, without counting a try.
                _failed[message.Id] = (before.Tries, clock.GetUtcNow() + options.Value.DelayBefore(2));
            }
            catch (Exception ex) when (ex is not OperationCanceledException || !token.IsCancellationRequested)
            {
                if (ex is SmsRejectedException || attempt >= options.Value.MaxTries)
                {
                    await delivery.GiveUpAsync(message, attempt, CancellationToken.None);
                    _failed.TryRemove(message.Id, out _);
                    accepted.Add(message.Id);
                    LogGaveUp(logger, message.Id, attempt, ex.GetType().Name);
                    return;
                }
                _failed[message.Id] = (attempt, clock.GetUtcNow() + options.Value.DelayBefore(attempt + 1));
                LogRetrying(logger, message.Id, attempt, ex.GetType().Name);
            }
        });
        return new HandOver(accepted.ToHashSet());
    }

    /// <summary>Any number: each message is sent within its hand-over, at the gateway's rate, so nothing waits ahead of the sender.</summary>
    public Task<TransportRoom> RoomAsync(CancellationToken ct) => Task.FromResult(TransportRoom.Any);

    public ValueTask ResetAsync() => ValueTask.CompletedTask;

    [LoggerMessage(EventId = 5010, Level = LogLevel.Warning, Message = "SMS {MessageId} failed on try {Try} ({Error}); it will be tried again")]
    private static partial void LogRetrying(ILogger logger, long messageId, int @try, string error);

    [LoggerMessage(EventId = 5011, Level = LogLevel.Error, Message = "SMS {MessageId} given up after try {Try} ({Error}); recorded in sms_sent with status 2")]
    private static partial void LogGaveUp(ILogger logger, long messageId, int @try, string error);
}
