using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using RabbitMQ.Client;
using RabbitMQ.Client.Events;
using RabbitMQ.Client.Exceptions;

namespace Slots.Sms.RabbitMq;

/// <summary>
/// Reads the work queue and sends each SMS. Manual acks: a message is acked only after it was
/// sent and recorded (or found sent before; a record that fails after the send is retried inside
/// <see cref="SmsDelivery"/>, so a failure reaching this class is always one of the send), moved to a delay queue for a later try, or moved to
/// the dead-letter queue after the last try; a consumer that dies mid-message leaves it unacked,
/// and the broker hands it out again. Up to Prefetch messages are in flight at once, the send rate
/// is capped by <see cref="SmsRate"/>. Reconnects with back-off when the broker goes away.
/// </summary>
public sealed partial class SmsConsumer(
    SmsBroker broker,
    SmsDelivery delivery,
    SmsMetrics metrics,
    TimeProvider clock,
    IOptions<SmsOptions> options,
    ILogger<SmsConsumer> logger) : BackgroundService
{
    /// <summary>How long a dropped connection to a broker that stopped answering may take to close.</summary>
    private static readonly TimeSpan AbortTimeout = TimeSpan.FromSeconds(1);

    private readonly TaskCompletionSource _consuming = new(TaskCreationOptions.RunContinuationsAsynchronously);

    /// <summary>Completes once the consumer is subscribed for the first time.</summary>
    public Task Consuming => _consuming.Task;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var delay = TimeSpan.FromSeconds(1);
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                await ConsumeUntilClosedAsync(stoppingToken);
                delay = TimeSpan.FromSeconds(1);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Exception ex) when (SmsBroker.Unreachable(ex))
            {
                LogConnectFailed(logger, delay.TotalSeconds, ex);
            }
            try
            {
                await Task.Delay(delay, clock, stoppingToken);
            }
            catch (OperationCanceledException)
            {
                return;
            }
            delay = TimeSpan.FromTicks(Math.Min(delay.Ticks * 2, options.Value.ReconnectMaxDelay.Ticks));
        }
    }

    private async Task ConsumeUntilClosedAsync(CancellationToken stoppingToken)
    {
        var prefetch = Math.Max((ushort)1, options.Value.Prefetch);
        await using var connection = await broker.ConnectAsync("slots-sms-consumer", stoppingToken);
        await using var channel = await connection.CreateChannelAsync(new CreateChannelOptions(false, false, consumerDispatchConcurrency: prefetch), stoppingToken);
        // Retries and dead letters are published on a channel of their own, with confirms, before the original is acked.
        await using var publisher = await connection.CreateChannelAsync(new CreateChannelOptions(true, true), stoppingToken);
        await broker.DeclareAsync(channel, stoppingToken);
        await channel.BasicQosAsync(0, prefetch, global: false, stoppingToken);

        var closed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        connection.ConnectionShutdownAsync += (_, _) => { closed.TrySetResult(); return Task.CompletedTask; };
        channel.ChannelShutdownAsync += (_, _) => { closed.TrySetResult(); return Task.CompletedTask; };
        publisher.ChannelShutdownAsync += (_, _) => { closed.TrySetResult(); return Task.CompletedTask; };

        var consumer = new AsyncEventingBasicConsumer(channel);
        consumer.ReceivedAsync += (_, delivered) => HandleAsync(channel, publisher, delivered, closed, stoppingToken);
        await channel.BasicConsumeAsync(broker.WorkQueue, autoAck: false, consumer, stoppingToken);
        LogConsuming(logger, broker.WorkQueue, prefetch);
        _consuming.TrySetResult();
        await closed.Task.WaitAsync(stoppingToken);
        LogConnectionLost(logger);
        // Aborted, not closed, before the disposal: a node that froze never answers a close, and the
        // messages this consumer holds unacked go back to the queue only once its connection is gone.
        await connection.AbortAsync(AbortTimeout);
    }

    private async Task HandleAsync(IChannel channel, IChannel publisher, BasicDeliverEventArgs delivered, TaskCompletionSource closed, CancellationToken stoppingToken)
    {
        var attempt = SmsBroker.TryOf(delivered.BasicProperties);
        var message = SmsBroker.Read(delivered.Body);
        try
        {
            if (message is null)
            {
                await MoveAsync(publisher, delivered, broker.DeadQueue, attempt, "unreadable message body");
                await channel.BasicAckAsync(delivered.DeliveryTag, multiple: false, CancellationToken.None);
                return;
            }
            try
            {
                if (delivered.Redelivered)
                {
                    // The consumer that had it lost its channel (its node died, or it did) and may be sending
                    // it right now: give it the time to record the send, so the check in DeliverAsync sees it.
                    await Task.Delay(options.Value.RedeliveryGrace, stoppingToken);
                }
                await delivery.DeliverAsync(message, attempt, stoppingToken, () => channel.IsOpen);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return; // stopping: no ack, the broker hands the message out again
            }
            catch (SmsHeldElsewhereException)
            {
                // Another process holds this message's claim (two copies were published): ask again after
                // the first retry's delay, without counting a try; by then it is sent, or its claim ran out.
                await MoveAsync(publisher, delivered, broker.DelayQueue(options.Value.DelayBefore(2)), attempt, nameof(SmsHeldElsewhereException));
                metrics.Duplicates.Add(1);
                await channel.BasicAckAsync(delivered.DeliveryTag, multiple: false, CancellationToken.None);
                return;
            }
            catch (HandedBackException)
            {
                // The channel closed before the send: the broker has handed the message to another consumer.
                LogUnacked(logger, message.Id, nameof(HandedBackException));
                return;
            }
            catch (Exception ex)
            {
                await RetryOrGiveUpAsync(publisher, delivered, message.Id, attempt, ex);
            }
            await channel.BasicAckAsync(delivered.DeliveryTag, multiple: false, CancellationToken.None);
        }
        catch (Exception ex) when (ex is OperationInterruptedException or AlreadyClosedException or PublishException or IOException)
        {
            // The channel went away mid-message: unacked, so the broker hands it out again.
            LogUnacked(logger, message?.Id ?? 0, ex.GetType().Name);
        }
        catch (TimeoutException ex)
        {
            // No confirm for a move within ConfirmTimeout: the node froze or lost the queue's leader with the
            // socket still up, and would hold this message unacked for as long as the connection lives. Drop
            // the connection: the broker hands the message out again, and the consumer reconnects.
            LogUnacked(logger, message?.Id ?? 0, ex.Message);
            closed.TrySetResult();
        }
    }

    private async Task RetryOrGiveUpAsync(IChannel publisher, BasicDeliverEventArgs delivered, long id, int attempt, Exception ex)
    {
        var error = ex is GatewayUnavailableException unavailable ? $"{ex.GetType().Name} {unavailable.Status}" : ex.GetType().Name;
        if (ex is SmsRejectedException || attempt >= options.Value.MaxTries)
        {
            await MoveAsync(publisher, delivered, broker.DeadQueue, attempt, error);
            metrics.DeadLettered.Add(1);
            LogDeadLettered(logger, id, attempt, error);
            return;
        }
        var wait = options.Value.DelayBefore(attempt + 1);
        await MoveAsync(publisher, delivered, broker.DelayQueue(wait), attempt + 1, error);
        metrics.Retried.Add(1);
        LogRetrying(logger, id, attempt, error, wait.TotalSeconds);
    }

    /// <summary>
    /// Publishes a copy (same body and message id) and waits for the broker's confirm, for at most
    /// Slots:Sms:ConfirmTimeout: the client waits for a confirm without end, as the relay's wave would.
    /// </summary>
    private Task MoveAsync(IChannel publisher, BasicDeliverEventArgs delivered, string queue, int attempt, string error)
    {
        var properties = SmsBroker.Properties(delivered.BasicProperties.MessageId ?? "", delivered.BasicProperties.Type, attempt, error);
        return Confirms.WithinAsync(ct => publisher.BasicPublishAsync("", queue, mandatory: true, properties, delivered.Body, ct),
            broker.ConfirmTimeout, clock, $"the broker did not confirm a move to {queue}");
    }

    [LoggerMessage(EventId = 5020, Level = LogLevel.Information, Message = "SMS consumer reading {Queue} with prefetch {Prefetch}")]
    private static partial void LogConsuming(ILogger logger, string queue, int prefetch);

    [LoggerMessage(EventId = 5021, Level = LogLevel.Warning, Message = "SMS consumer lost its RabbitMQ connection; reconnecting")]
    private static partial void LogConnectionLost(ILogger logger);

    [LoggerMessage(EventId = 5022, Level = LogLevel.Warning, Message = "SMS consumer cannot reach RabbitMQ; next try in {Seconds} s")]
    private static partial void LogConnectFailed(ILogger logger, double seconds, Exception ex);

    [LoggerMessage(EventId = 5023, Level = LogLevel.Warning, Message = "SMS {MessageId} failed on try {Try} ({Error}); next try in {Seconds} s")]
    private static partial void LogRetrying(ILogger logger, long messageId, int @try, string error, double seconds);

    [LoggerMessage(EventId = 5024, Level = LogLevel.Error, Message = "SMS {MessageId} moved to the dead-letter queue after try {Try} ({Error})")]
    private static partial void LogDeadLettered(ILogger logger, long messageId, int @try, string error);

    [LoggerMessage(EventId = 5025, Level = LogLevel.Warning, Message = "SMS {MessageId} left unacked ({Error}); the broker redelivers it")]
    private static partial void LogUnacked(ILogger logger, long messageId, string error);
}
