namespace Slots.Reservations;

/// <summary>Business outcomes of the hot-path operations. Values, not exceptions.</summary>
public enum ReservationStatus
{
    Reserved = 1,
    SlotFull = 2,
    AlreadyBooked = 3,
    UnknownSlot = 4,
    SlotStarted = 5,

    // Decided before the store is asked; never recorded under an idempotency key.
    UnknownPlace = 6,
    OutsideWindow = 7,
    KeyReused = 8,
    InProgress = 9,
}

/// <summary>
/// The answer of a reservation. <see cref="Replayed"/> is true when the answer came from an
/// earlier request with the same idempotency key. <see cref="Code"/> is the new code when
/// reserved; for <see cref="ReservationStatus.AlreadyBooked"/> it is the existing code, and only
/// when the request came from the same contact phone that made it.
/// </summary>
public readonly record struct ReserveResult(ReservationStatus Status, string? Code, bool Replayed = false)
{
    public static ReserveResult Reserved(string code) => new(ReservationStatus.Reserved, code);
}

public enum CancelStatus
{
    Cancelled = 1,
    NotFound = 2,
    Started = 3,
}

public enum RescheduleStatus
{
    Rescheduled = 1,
    NotFound = 2,
    SlotFull = 3,
    UnknownSlot = 4,
    SlotStarted = 5,
    Started = 6,

    // Decided before the store is asked: the held reservation and the target are on different sides of the window horizon.
    AcrossWindow = 7,
}

/// <summary>Who may see or change a reservation: the phone that made it or the person's national id.</summary>
public readonly record struct ContactProof(string? Phone, string? PersonHash);
