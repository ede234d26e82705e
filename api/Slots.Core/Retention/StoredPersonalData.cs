using Slots.Reservations;
using Slots.WaitingList;

namespace Slots.Retention;

/// <summary>A booking kept under a person: hot, on disk, or a change not yet flushed.</summary>
public sealed record StoredBooking(string Code, SlotKey Slot, string Name, string Phone, string Language, bool Cancelled, DateTimeOffset CreatedAt)
{
    /// <summary>1 or 2 for an appointment of a two-dose pair (then <see cref="Code"/> is the pair's, the first dose's), null for a single booking.</summary>
    public int? Dose { get; init; }
}

/// <summary>
/// A waiting-list entry kept under a person. <see cref="Token"/> is the entry's secret: the erasure
/// leaves the list with it; it is never shown.
/// </summary>
public sealed record StoredWaitingEntry(long Id, int PlaceId, DateOnly From, DateOnly To, string Name, string Phone, string Language,
    EntryState State, DateTimeOffset JoinedAt, string Token);

/// <summary>
/// An SMS still queued or already handed on for sending (<see cref="SentAt"/> when the store knows
/// it), as the outbox, or a new booking's own row, keeps it.
/// </summary>
public sealed record StoredSms(long Id, ChangeKind Kind, string Code, string Phone, string Language, int PlaceId, DateOnly Day, int StartMinute,
    string? Note, DateTimeOffset QueuedAt, bool Sent, DateTimeOffset? SentAt = null);

/// <summary>A day-before reminder recorded for one of the person's bookings.</summary>
public sealed record StoredReminder(string Code, int PlaceId, DateOnly Day, DateTimeOffset StartsAt, DateTimeOffset QueuedAt);

/// <summary>Everything kept about one person (one national id's hash), table by table.</summary>
public sealed record StoredPersonalData(
    IReadOnlyList<StoredBooking> Bookings,
    IReadOnlyList<StoredWaitingEntry> WaitingList,
    IReadOnlyList<StoredSms> Sms,
    IReadOnlyList<StoredReminder> Reminders);

/// <summary>
/// Per-backend reading and erasing of one person's data, for their own request (the retention
/// job's <see cref="IPersonalDataEraser"/> erases by date instead).
/// </summary>
public interface IPersonalDataStore
{
    /// <summary>
    /// The person hash of the booking with <paramref name="code"/> (active, cancelled or not yet
    /// flushed) when the proof is its phone or national id; null when none matches or it was erased.
    /// </summary>
    Task<string?> OwnerAsync(string code, ContactProof proof, CancellationToken ct);

    /// <summary>Every row that holds the person's data: bookings, waiting-list entries, the SMS of both, reminders.</summary>
    Task<StoredPersonalData> ReadAsync(string personHash, CancellationToken ct);

    /// <summary>
    /// Blanks the person's name, phone and hash wherever they are kept and forgets their active-person
    /// row. An SMS still queued keeps its phone until it has been sent (it is the cancel the person was
    /// promised); the retention job blanks it once sent. Idempotent; the booking's own rows go last,
    /// so a run cut off half-way is found and finished by the next.
    /// </summary>
    Task<ErasedRows> EraseAsync(string personHash, CancellationToken ct);
}
