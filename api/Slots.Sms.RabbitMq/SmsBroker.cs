using System.Text;
using System.Text.Json;
using RabbitMQ.Client;
using RabbitMQ.Client.Exceptions;

namespace Slots.Sms.RabbitMq;

/// <summary>
/// The RabbitMQ side of SMS: where the broker is (ConnectionStrings:RabbitMq, see
/// <see cref="BrokerAddress"/>) and the queues. All queues are durable quorum queues (replicated when RabbitMQ is clustered):
/// <list type="bullet">
/// <item>the work queue (Slots:Sms:Queue, default slots.sms), which the relay publishes to and the consumer reads;</item>
/// <item>one delay queue per retry delay (slots.sms.delay.5000ms, …): a message waits there for the
/// queue's TTL, then is dead-lettered back to the work queue;</item>
/// <item>the dead-letter queue (slots.sms.dead): messages given up after the last try, for a person
/// to inspect and replay.</item>
/// </list>
/// </summary>
public sealed class SmsBroker(BrokerAddress address, SmsOptions options)
{
    public const string TryHeader = "x-slots-try";
    public const string ErrorHeader = "x-slots-error";

    public BrokerAddress Address { get; } = address;
    public string WorkQueue => options.Queue;
    public string DeadQueue => options.Queue + ".dead";

    public string DelayQueue(TimeSpan delay) => $"{options.Queue}.delay.{(long)delay.TotalMilliseconds}ms";

    /// <summary>
    /// The most ready messages the work queue should hold with <paramref name="consumers"/> reading it: each consumer sends
    /// Slots:Sms:MessagesPerSecond, and the queue holds Slots:Sms:QueueAhead of that (a queue nobody reads counts one
    /// consumer, so the first to come finds work at once). Null: no limit.
    /// </summary>
    public long? QueueLimit(uint consumers) => options.QueueAhead <= TimeSpan.Zero
        ? null
        : (long)Math.Ceiling(Math.Max(1u, consumers) * (double)options.MessagesPerSecond * options.QueueAhead.TotalSeconds);

    /// <summary>Slots:Sms:ConfirmTimeout: the longest wait for a channel to open and a wave to be confirmed.</summary>
    public TimeSpan ConfirmTimeout => options.ConfirmTimeout;

    /// <summary>
    /// A connection to any node on the list that is up (tried in random order). Automatic recovery
    /// off: the relay and the consumer reconnect themselves, with back-off, through here again, so
    /// a reconnect after a node died lands on a live one, and they re-declare what they use.
    /// </summary>
    public Task<IConnection> ConnectAsync(string clientName, CancellationToken ct)
    {
        var factory = new ConnectionFactory
        {
            Uri = Address.Credentials,
            ClientProvidedName = clientName,
            AutomaticRecoveryEnabled = false,
            RequestedConnectionTimeout = TimeSpan.FromSeconds(10),
        };
        return factory.CreateConnectionAsync(Address.Endpoints, clientName, ct);
    }

    /// <summary>
    /// The failures of a broker that is down, restarting or cut off (no node answers, the connection or channel closed, the
    /// socket broke, an operation timed out): the caller drops the connection and tries again later.
    /// </summary>
    public static bool Unreachable(Exception ex) => ex is BrokerUnreachableException or OperationInterruptedException
        or AlreadyClosedException or System.Net.Sockets.SocketException or IOException or TimeoutException;

    /// <summary>Declares every queue (idempotent; the same arguments every time).</summary>
    public async Task DeclareAsync(IChannel channel, CancellationToken ct)
    {
        await channel.QueueDeclareAsync(WorkQueue, durable: true, exclusive: false, autoDelete: false, Quorum(), cancellationToken: ct);
        await channel.QueueDeclareAsync(DeadQueue, durable: true, exclusive: false, autoDelete: false, Quorum(), cancellationToken: ct);
        foreach (var delay in options.EffectiveRetryDelays.Distinct())
        {
            var arguments = Quorum();
            arguments["x-message-ttl"] = (long)delay.TotalMilliseconds;
            arguments["x-dead-letter-exchange"] = "";
            arguments["x-dead-letter-routing-key"] = WorkQueue;
            // At-least-once dead-lettering: a message leaves the delay queue only once the work queue has it.
            arguments["x-dead-letter-strategy"] = "at-least-once";
            arguments["x-overflow"] = "reject-publish";
            await channel.QueueDeclareAsync(DelayQueue(delay), durable: true, exclusive: false, autoDelete: false, arguments, cancellationToken: ct);
        }
    }

    private static Dictionary<string, object?> Quorum() => new() { ["x-queue-type"] = "quorum" };

    public static ReadOnlyMemory<byte> Body(SmsEvent message) => JsonSerializer.SerializeToUtf8Bytes(message, SmsJsonContext.Default.SmsEvent);

    /// <summary>The message, or null when the body is not one (it goes to the dead-letter queue as it is).</summary>
    public static SmsEvent? Read(ReadOnlyMemory<byte> body)
    {
        try
        {
            return JsonSerializer.Deserialize(body.Span, SmsJsonContext.Default.SmsEvent);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    /// <summary>Persistent, with the outbox row id as the message id and the try number in a header.</summary>
    public static BasicProperties Properties(string messageId, string? type, int attempt, string? error = null)
    {
        var headers = new Dictionary<string, object?> { [TryHeader] = attempt };
        if (error is not null)
        {
            headers[ErrorHeader] = error;
        }
        return new BasicProperties
        {
            Persistent = true,
            MessageId = messageId,
            ContentType = "application/json",
            Type = type,
            Headers = headers,
        };
    }

    public static int TryOf(IReadOnlyBasicProperties properties) => Header(properties, TryHeader) switch
    {
        int i => i,
        long l => (int)l,
        byte[] text when int.TryParse(Encoding.UTF8.GetString(text), out var parsed) => parsed,
        _ => 1,
    };

    public static string? ErrorOf(IReadOnlyBasicProperties properties) => Header(properties, ErrorHeader) switch
    {
        byte[] text => Encoding.UTF8.GetString(text),
        string text => text,
        _ => null,
    };

    private static object? Header(IReadOnlyBasicProperties properties, string name) =>
        properties.Headers is { } headers && headers.TryGetValue(name, out var value) ? value : null;

    public static string KindName(SmsEvent message) => message switch
    {
        SlotReserved => "reserved",
        ReservationCancelled => "cancelled",
        ReservationRescheduled => "rescheduled",
        _ => "unknown",
    };
}
