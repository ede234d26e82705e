namespace Slots.Reservations;

/// <summary>Outcomes of a move to another slot.</summary>
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

    // Decided before the store is asked: no active place with the target's id; the target day has passed.
    UnknownPlace = 8,
    OutsideWindow = 9,

    // Decided before the store is asked: dose 1 of a pair does not move (cancel the pair and book again);
    // dose 2's target lies outside the service's interval after dose 1.
    PairFirstDoseFixed = 10,
    OutsideInterval = 11,

    // Decided before the store is asked: a move of the second dose of a booking that has none.
    NoSecondDose = 12,

    // The door checked the booking in before its start: the visit is under way where it was booked, so it stays there.
    CheckedIn = 13,
}
