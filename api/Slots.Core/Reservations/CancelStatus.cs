namespace Slots.Reservations;

/// <summary>Outcomes of a cancellation.</summary>
public enum CancelStatus
{
    Cancelled = 1,
    NotFound = 2,
    Started = 3,
}
