using Slots.Reservations;
using Slots.Storage;

namespace Slots.Sms;

/// <summary>An unsent outbox row, as the relay reads it.</summary>
public sealed record OutboxRow(long Id, ChangeKind Kind, string Code, string Phone, string Language, int PlaceId, DateOnly Day, int StartMinute, string? Note = null);

public enum SmsSendStatus
{
    Sent = 1,

    /// <summary>The direct transport gave up after the last try (RabbitMQ dead-letters instead).</summary>
    GaveUp = 2,
}

/// <summary>The idempotency record of one SMS: written after the gateway took it.</summary>
public readonly record struct SmsSendRecord(long MessageId, ChangeKind Kind, string Code, SmsSendStatus Status, int Tries, long SentAt);

/// <summary>
/// Per-backend access to the outbox (read unsent rows in id order, mark rows sent) and to the
/// sms_sent idempotency table.
/// </summary>
public interface ISmsStore
{
    Task<IReadOnlyList<OutboxRow>> ReadUnsentAsync(int max, CancellationToken ct);

    Task MarkSentAsync(IReadOnlyCollection<long> ids, long now, CancellationToken ct);

    Task<bool> WasSentAsync(long messageId, CancellationToken ct);

    /// <summary>Records the send; a record already there for the id is kept as it is.</summary>
    Task RecordSentAsync(SmsSendRecord record, CancellationToken ct);
}
