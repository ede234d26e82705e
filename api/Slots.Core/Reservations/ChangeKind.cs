namespace Slots.Reservations;

/// <summary>Kinds of booking change, shared by the outbox and the change records.</summary>
public enum ChangeKind
{
    Reserved = 1,
    Cancelled = 2,
    Rescheduled = 3,
}
