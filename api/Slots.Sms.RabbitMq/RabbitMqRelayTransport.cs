using Microsoft.Extensions.Logging;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Slots.Sms.RabbitMq;

/// <summary>
/// Publishes to the work queue on a channel with publisher confirms tracked by the client: each
/// publish completes when the broker has confirmed it (persisted in the quorum queue), and throws
/// when the broker nacks or returns it. A wave's messages are published together and awaited together.
/// </summary>
public sealed partial class RabbitMqRelayTransport(SmsBroker broker, ILogger<RabbitMqRelayTransport> logger) : IOutboxTransport, IAsyncDisposable
{
    private IConnection? _connection;
    private IChannel? _channel;

    public async Task<HandOver> HandOverAsync(IReadOnlyList<SmsEvent> wave, CancellationToken ct)
    {
        IChannel channel;
        try
        {
            channel = await ChannelAsync(ct);
        }
        catch (Exception ex) when (ex is BrokerUnreachableException or OperationInterruptedException or AlreadyClosedException
                                       or System.Net.Sockets.SocketException or IOException or TimeoutException)
        {
            return new HandOver([], ex);
        }
        var publishes = wave.Select(m => PublishAsync(channel, m, ct)).ToList();
        var accepted = new HashSet<long>();
        Exception? broken = null;
        foreach (var publish in publishes)
        {
            var (id, error) = await publish;
            if (error is null)
            {
                accepted.Add(id);
            }
            else if (error is PublishException)
            {
                LogNacked(logger, id);
            }
            else
            {
                broken ??= error;
            }
        }
        return new HandOver(accepted, broken);
    }

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
            throw;
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

    public async ValueTask ResetAsync()
    {
        var (channel, connection) = (_channel, _connection);
        (_channel, _connection) = (null, null);
        try
        {
            if (channel is not null)
            {
                await channel.DisposeAsync();
            }
            if (connection is not null)
            {
                await connection.DisposeAsync();
            }
        }
        catch (Exception ex) when (ex is OperationInterruptedException or AlreadyClosedException or IOException or ObjectDisposedException)
        {
            // already gone with the broker
        }
    }

    public ValueTask DisposeAsync() => ResetAsync();

    [LoggerMessage(EventId = 5002, Level = LogLevel.Information, Message = "SMS relay connected to RabbitMQ")]
    private static partial void LogConnected(ILogger logger);

    [LoggerMessage(EventId = 5003, Level = LogLevel.Warning, Message = "RabbitMQ refused SMS message {MessageId}; its row stays unsent")]
    private static partial void LogNacked(ILogger logger, long messageId);
}
