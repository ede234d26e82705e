namespace Slots.Sms;

/// <summary>How outbox messages travel to the sender.</summary>
public enum SmsTransport
{
    /// <summary>RabbitMQ when ConnectionStrings:RabbitMq is set, Direct otherwise.</summary>
    Auto,

    /// <summary>The embedded default: the relay hands each message straight to the sender.</summary>
    Direct,

    /// <summary>The relay publishes to RabbitMQ; the SMS consumer sends.</summary>
    RabbitMq,
}

/// <summary>Which adapter sends the text.</summary>
public enum SmsSenderKind
{
    /// <summary>Development sink: JSON lines in a file.</summary>
    File,

    /// <summary>Production: an HTTP SMS gateway.</summary>
    Http,
}

/// <summary>Slots:Sms. Every key and its default is listed in the README's SMS section.</summary>
public sealed class SmsOptions
{
    public const string Section = "Slots:Sms";
    public const string ConnectionStringName = "RabbitMq";

    public SmsTransport Transport { get; set; } = SmsTransport.Auto;

    /// <summary>The public address of the served page, for the links in texts (a site's cancel, a reminder).</summary>
    public Uri PublicUrl { get; set; } = SmsTemplates.DefaultSite;
    public SmsSenderKind Sender { get; set; } = SmsSenderKind.File;

    /// <summary>The work queue; the delay and dead-letter queues are named after it.</summary>
    public string Queue { get; set; } = "slots.sms";

    /// <summary>Outbox rows read (and published or sent) per relay batch.</summary>
    public int RelayBatchSize { get; set; } = 500;

    /// <summary>How often the relay job runs.</summary>
    public TimeSpan RelayInterval { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>One relay run stops after this many batches or this long, whichever comes first.</summary>
    public int RelayMaxBatchesPerRun { get; set; } = 200;
    public TimeSpan RelayMaxRunTime { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How much sending the broker's work queue holds ahead of its consumers: the relay publishes only while the queue's
    /// ready messages are fewer than its consumers (at least one) × MessagesPerSecond × this, and the outbox keeps the
    /// rest. A stampede's confirmations wait in the database's outbox, not in a replicated queue, and the broker takes
    /// them at the pace the gateway sends them. 10 s is five relay runs (RelayInterval): a relay that misses a few still
    /// leaves the consumers work. Zero: no limit (the relay publishes everything it reads).
    /// </summary>
    public TimeSpan QueueAhead { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Longest wait between reconnection attempts to the broker (the wait doubles from 1 s up to this).</summary>
    public TimeSpan ReconnectMaxDelay { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// How long the relay waits for RabbitMQ to open its channel, say how full the work queue is (QueueAhead) and confirm a
    /// wave. Past it the wave counts as broken: the connection is dropped and the unconfirmed rows go again after the back-off
    /// (a copy is stopped at sms_sent). Without a bound a confirm that never comes (a frozen or
    /// partitioned node, a queue leader lost mid-publish) would hold the relay, and every SMS behind it, for good.
    /// </summary>
    public TimeSpan ConfirmTimeout { get; set; } = TimeSpan.FromSeconds(15);

    /// <summary>Unacknowledged messages the consumer holds (and processes in parallel).</summary>
    public ushort Prefetch { get; set; } = 32;

    /// <summary>
    /// How long the consumer waits before it handles a redelivered message: the consumer that had it
    /// before may be mid-send when its channel closed (its RabbitMQ node died), and needs a moment to
    /// record the send, or both would send it.
    /// </summary>
    public TimeSpan RedeliveryGrace { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>Sending tries per message before it goes to the dead-letter queue.</summary>
    public int MaxTries { get; set; } = 5;

    /// <summary>Wait before try 2, 3, …; the last one repeats. Each delay is a queue of its own.</summary>
    public TimeSpan[] RetryDelays { get; set; } = [];

    /// <summary>
    /// How long the record of a send the gateway took is retried (back-off from 0.2 s up to 5 s)
    /// before the message is taken as sent without one. Longer than a database restart; the send
    /// itself is never repeated for a failed record.
    /// </summary>
    public TimeSpan RecordPatience { get; set; } = TimeSpan.FromMinutes(2);

    /// <summary>
    /// How long a consumer's claim on a message stands before another copy may take it over: the
    /// holder may be waiting for the gateway's rate, sending, or recording the send for up to
    /// RecordPatience. A holder that died leaves its message this long before the next copy sends it.
    /// </summary>
    public TimeSpan ClaimLease { get; set; } = TimeSpan.FromMinutes(3);

    /// <summary>The gateway's allowed rate: messages per second (token bucket, bursts up to one second's worth).</summary>
    public int MessagesPerSecond { get; set; } = 50;

    public FileSenderOptions File { get; set; } = new();
    public HttpGatewayOptions Http { get; set; } = new();

    /// <summary>The configured delays, or the defaults when none are configured.</summary>
    public IReadOnlyList<TimeSpan> EffectiveRetryDelays =>
        RetryDelays is { Length: > 0 } ? RetryDelays : [TimeSpan.FromSeconds(5), TimeSpan.FromSeconds(30), TimeSpan.FromMinutes(2), TimeSpan.FromMinutes(10)];

    /// <summary>The wait before the given try (2 = first retry).</summary>
    public TimeSpan DelayBefore(int attempt)
    {
        var delays = EffectiveRetryDelays;
        return delays[Math.Clamp(attempt - 2, 0, delays.Count - 1)];
    }
}

public sealed class FileSenderOptions
{
    /// <summary>JSON-lines file the development sink appends to (relative to the content root).</summary>
    public string Path { get; set; } = "data/sms.jsonl";
}

public sealed class HttpGatewayOptions
{
    /// <summary>The gateway's send endpoint (POST, JSON body { to, text, reference }).</summary>
    public Uri? Url { get; set; }

    /// <summary>HTTP Basic credentials; leave empty for none.</summary>
    public string? Username { get; set; }
    public string? Password { get; set; }

    /// <summary>Per attempt.</summary>
    public TimeSpan Timeout { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Quick retries inside one try (with exponential back-off and jitter); the queue does the long ones.</summary>
    public int Retries { get; set; } = 2;
    public TimeSpan RetryDelay { get; set; } = TimeSpan.FromMilliseconds(200);

    /// <summary>The circuit opens when this share of calls fails within the sampling period (with at least 10 calls) ...</summary>
    public double BreakFailureRatio { get; set; } = 0.5;
    public TimeSpan BreakSampling { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>... and stays open this long.</summary>
    public TimeSpan BreakDuration { get; set; } = TimeSpan.FromSeconds(15);
}
