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

    /// <summary>Claimed by one consumer, which is sending it now; replaced by its record after the send.</summary>
    Sending = 3,
}

/// <summary>What a claim of a message found.</summary>
public enum SmsClaimResult
{
    /// <summary>This consumer holds the message now: it alone sends it.</summary>
    Claimed = 1,

    /// <summary>Sent (or given up) before: not to be sent again.</summary>
    Sent = 2,

    /// <summary>Another consumer claimed it within the lease and may be sending it right now.</summary>
    HeldElsewhere = 3,
}

/// <summary>One consumer's claim on a message: who (a token of its own) and when (Unix seconds).</summary>
public readonly record struct SmsClaim(long MessageId, ChangeKind Kind, string Code, string Token, long At);

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

    /// <summary>Whether the message was sent or given up (a claim is not a send).</summary>
    Task<bool> WasSentAsync(long messageId, CancellationToken ct);

    /// <summary>
    /// Claims the message for one send: Claimed when nobody holds it, or when the claim there is older
    /// than <paramref name="leaseSeconds"/> (its holder died before recording anything); Sent when it
    /// was sent or given up; HeldElsewhere while another claim is fresh. Two copies of one message
    /// consumed at once by two processes (a relay that published it twice around a database failover)
    /// meet here, and only one sends.
    /// </summary>
    Task<SmsClaimResult> ClaimAsync(SmsClaim claim, long leaseSeconds, CancellationToken ct);

    /// <summary>Gives up a claim that was not used (the send failed, or the message was handed back): the message can be claimed at once.</summary>
    Task ReleaseAsync(SmsClaim claim, CancellationToken ct);

    /// <summary>Records the send, replacing a claim; a record already there for the id is kept as it is.</summary>
    Task RecordSentAsync(SmsSendRecord record, CancellationToken ct);
}
