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

    // Refused by the store (10 was already PlaceClosed, so these start at 11): the person may not book
    // the service; a pair found no seat for its second dose and gave its first back.
    NotEligible = 11,
    SecondDoseFull = 12,

    // Decided before the store is asked: the place does not offer the service named; the place offers
    // several services and the request named none.
    UnknownService = 13,
    ServiceRequired = 14,

    // Decided before the store is asked: the second dose chosen lies outside the interval after the
    // first (or at another place); a second dose was chosen for a service of one appointment.
    SecondDoseOutsideInterval = 15,
    NoSecondDose = 16,
}
