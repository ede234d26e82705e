namespace Slots.Reservations;

/// <summary>Outcomes of a cancellation.</summary>
public enum CancelStatus
{
    Cancelled = 1,
    NotFound = 2,
    Started = 3,

    /// <summary>Checked in at the door: the visit happened, and nothing can cancel it.</summary>
    CheckedIn = 4,
}
