using Microsoft.Extensions.Logging;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Slots.Sms.RabbitMq;

/// <summary>
/// Publishes to the work queue on a channel with publisher confirms tracked by the client: each
/// publish completes when the broker has confirmed it (persisted in the quorum queue), and throws
/// when the broker nacks or returns it. A wave's messages are published together and awaited together,
/// for at most Slots:Sms:ConfirmTimeout: the client waits for a confirm without end, and a node that
/// froze or lost the queue's leader mid-publish may never send one.
/// </summary>
public sealed partial class RabbitMqRelayTransport(SmsBroker broker, SmsMetrics metrics, ILogger<RabbitMqRelayTransport> logger)
    : IOutboxTransport, IAsyncDisposable
{
    /// <summary>How long a broken connection may take to close before it is left to the garbage collector.</summary>
    private static readonly TimeSpan AbortTimeout = TimeSpan.FromSeconds(1);

    /// <summary>How long disposal waits for connections still closing.</summary>
    private static readonly TimeSpan ShutdownWait = TimeSpan.FromSeconds(5);

    private IConnection? _connection;
    private IChannel? _channel;
    private Task _closing = Task.CompletedTask;

    /// <summary>
    /// The work queue's room below its limit (<see cref="SmsBroker.QueueLimit"/>), from a passive declare on the relay's
    /// channel: the queue's ready messages and its consumers, one round trip before each batch.
    /// </summary>
    public async Task<TransportRoom> RoomAsync(CancellationToken ct)
    {
        if (broker.QueueLimit(1) is null)
        {
            return TransportRoom.Any;
        }
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
        deadline.CancelAfter(broker.ConfirmTimeout);
        try
        {
            var channel = await ChannelAsync(deadline.Token);
            var queue = await channel.QueueDeclarePassiveAsync(broker.WorkQueue, deadline.Token);
            metrics.QueueReady(queue.MessageCount);
            var limit = broker.QueueLimit(queue.ConsumerCount) ?? long.MaxValue;
            return new TransportRoom((int)Math.Clamp(limit - queue.MessageCount, 0, int.MaxValue));
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            return new TransportRoom(0, TimedOut("the broker did not say how full the work queue is"));
        }
        catch (Exception ex) when (SmsBroker.Unreachable(ex))
        {
            return new TransportRoom(0, ex);
        }
    }

    public async Task<HandOver> HandOverAsync(IReadOnlyList<SmsEvent> wave, CancellationToken ct)
    {
        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(ct);
        deadline.CancelAfter(broker.ConfirmTimeout);
        IChannel channel;
        try
        {
            channel = await ChannelAsync(deadline.Token);
        }
        catch (OperationCanceledException) when (!ct.IsCancellationRequested)
        {
            return new HandOver([], TimedOut("the channel did not open"));
        }
        catch (Exception ex) when (SmsBroker.Unreachable(ex))
        {
            return new HandOver([], ex);
        }
        var publishes = wave.Select(m => PublishAsync(channel, m, deadline.Token)).ToList();
        var accepted = new HashSet<long>();
        Exception? broken = null;
        PublishException? refused = null;
        foreach (var publish in publishes)
        {
            Exception? error;
            long id;
            try
            {
                (id, error) = await publish;
            }
            catch (OperationCanceledException) when (!ct.IsCancellationRequested)
            {
                broken ??= TimedOut("the broker did not confirm the wave");
                continue;
            }
            if (error is null)
            {
                accepted.Add(id);
            }
            else if (error is PublishException refusal)
            {
                LogNacked(logger, id, refusal.IsReturn ? "returned it as unroutable" : "nacked it");
                refused ??= refusal;
            }
            else
            {
                broken ??= error;
            }
        }
        if (broken is null && refused is not null && accepted.Count == 0)
        {
            // Not one message of the wave taken: the queue cannot take any on this channel now. After a
            // queue leader's loss a channel was seen refusing every publish for minutes while a fresh one
            // would do; a break makes the relay back off and reconnect instead of asking again at once.
            broken = refused;
        }
        return new HandOver(accepted, broken);
    }

    private TimeoutException TimedOut(string what) =>
        new($"{what} within {broker.ConfirmTimeout.TotalSeconds:0.#} s (Slots:Sms:ConfirmTimeout)");

    private async Task<(long Id, Exception? Error)> PublishAsync(IChannel channel, SmsEvent message, CancellationToken ct)
    {
        try
        {
            var id = message.Id.ToString(System.Globalization.CultureInfo.InvariantCulture);
            await channel.BasicPublishAsync("", broker.WorkQueue, mandatory: true, SmsBroker.Properties(id, SmsBroker.KindName(message), 1),
                SmsBroker.Body(message), ct);
            return (message.Id, null);
        }
        catch (OperationCanceledException) when (ct.IsCancellationRequested)
        {
            throw; // the caller's stop, or the wave's deadline: HandOverAsync tells them apart
        }
        catch (Exception ex)
        {
            return (message.Id, ex);
        }
    }

    private async Task<IChannel> ChannelAsync(CancellationToken ct)
    {
        if (_channel is { IsOpen: true })
        {
            return _channel;
        }
        await ResetAsync();
        _connection = await broker.ConnectAsync("slots-sms-relay", ct);
        _channel = await _connection.CreateChannelAsync(
            new CreateChannelOptions(publisherConfirmationsEnabled: true, publisherConfirmationTrackingEnabled: true), ct);
        await broker.DeclareAsync(_channel, ct);
        LogConnected(logger);
        return _channel;
    }

    /// <summary>
    /// Drops the connection. It closes in the background: a reset follows a break, and closing waits
    /// for the broker's answer, which a frozen node never sends (25 s here before the client gave up),
    /// while the relay should be reconnecting to a node that answers.
    /// </summary>
    public ValueTask ResetAsync()
    {
        // A channel is only ever opened on the connection, and goes with it.
        var connection = _connection;
        (_channel, _connection) = (null, null);
        if (connection is not null)
        {
            _closing = Task.WhenAll(_closing, CloseAsync(connection));
        }
        return ValueTask.CompletedTask;
    }

    private async Task CloseAsync(IConnection connection)
    {
        await Task.Yield();
        try
        {
            // Aborted, not closed: no error of a broker that is gone is raised.
            await connection.AbortAsync(AbortTimeout);
            await connection.DisposeAsync();
        }
        catch (Exception ex) when (ex is OperationInterruptedException or AlreadyClosedException or IOException or ObjectDisposedException
                                       or TimeoutException or OperationCanceledException)
        {
            LogCloseFailed(logger, ex.GetType().Name);
        }
    }

    /// <summary>Drops the connection and waits a little for the closes under way; a broker that does not answer is not waited for.</summary>
    public async ValueTask DisposeAsync()
    {
        await ResetAsync();
        try
        {
            await _closing.WaitAsync(ShutdownWait);
        }
        catch (TimeoutException)
        {
            // the broker did not answer; the process ends the sockets
        }
    }

    [LoggerMessage(EventId = 5002, Level = LogLevel.Information, Message = "SMS relay connected to RabbitMQ")]
    private static partial void LogConnected(ILogger logger);

    [LoggerMessage(EventId = 5004, Level = LogLevel.Debug, Message = "A dropped RabbitMQ connection of the SMS relay did not close cleanly ({Error})")]
    private static partial void LogCloseFailed(ILogger logger, string error);

    [LoggerMessage(EventId = 5003, Level = LogLevel.Warning, Message = "RabbitMQ refused SMS message {MessageId} ({How}); its row stays unsent")]
    private static partial void LogNacked(ILogger logger, long messageId, string how);
}
