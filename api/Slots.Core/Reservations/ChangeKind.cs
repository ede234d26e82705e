namespace Slots.Reservations;

/// <summary>
/// Kinds of booking change, shared by the outbox and the change records. The change records use
/// the first three only: a site's cancel is a Cancelled change and a reminder changes nothing.
/// </summary>
public enum ChangeKind
{
    Reserved = 1,
    Cancelled = 2,
    Rescheduled = 3,

    /// <summary>The site cancelled a block of its slots (the outbox row's note holds the reason).</summary>
    SiteCancelled = 4,

    /// <summary>The day-before reminder.</summary>
    Reminder = 5,

    /// <summary>A seat held for someone on the waiting list (the outbox row's note: the hold's minutes and the entry's token).</summary>
    SeatOffered = 6,
}
