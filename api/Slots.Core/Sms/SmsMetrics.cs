using System.Diagnostics.Metrics;

namespace Slots.Sms;

/// <summary>Meter Slots.Sms: what the relay moved and what the consumer sent, retried or gave up on. Counts only, no personal data.</summary>
public sealed class SmsMetrics
{
    public const string MeterName = "Slots.Sms";

    private long _outboxDepth;
    private long _queueReady = -1;

    public SmsMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        Relayed = meter.CreateCounter<long>("slots.sms.relayed", "{message}", "Outbox rows handed to the queue (or the sender) and marked sent");
        Sent = meter.CreateCounter<long>("slots.sms.sent", "{message}", "SMS the gateway accepted");
        Duplicates = meter.CreateCounter<long>("slots.sms.duplicates", "{message}", "Deliveries skipped because the message id was sent before");
        Retried = meter.CreateCounter<long>("slots.sms.retried", "{message}", "Failed sends put back for a later try");
        Unrecorded = meter.CreateCounter<long>("slots.sms.unrecorded", "{message}", "SMS the gateway accepted whose sms_sent record could not be written within RecordPatience");
        DeadLettered = meter.CreateCounter<long>("slots.sms.dead_lettered", "{message}", "Messages given up after the last try");
        meter.CreateObservableGauge("slots.sms.outbox.depth", () => Volatile.Read(ref _outboxDepth), "{message}",
            "Unsent outbox rows the relay found at its last look, at most one relay batch (Slots:Sms:RelayBatchSize): a full batch means at least that many wait");
        meter.CreateObservableGauge("slots.sms.queue.ready", QueueReadyMeasurements, "{message}",
            "Ready messages in the broker's work queue at the relay's last look (Slots:Sms:QueueAhead bounds them); none without a broker");
    }

    private IEnumerable<Measurement<long>> QueueReadyMeasurements()
    {
        var ready = Volatile.Read(ref _queueReady);
        return ready < 0 ? [] : [new Measurement<long>(ready)];
    }

    /// <summary>What the broker's work queue held ready when the relay last asked it.</summary>
    public void QueueReady(long ready) => Volatile.Write(ref _queueReady, ready);

    /// <summary>What the relay saw waiting when it last read the outbox; read for free from the batch it reads anyway.</summary>
    public void OutboxDepth(int unsent) => Volatile.Write(ref _outboxDepth, unsent);

    public Counter<long> Relayed { get; }
    public Counter<long> Sent { get; }
    public Counter<long> Duplicates { get; }
    public Counter<long> Retried { get; }
    public Counter<long> Unrecorded { get; }
    public Counter<long> DeadLettered { get; }
}
