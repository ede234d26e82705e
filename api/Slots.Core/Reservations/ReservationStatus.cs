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

    // Decided after the store refused the seat (slot full or unknown): the place is closed.
    PlaceClosed = 10,
}
