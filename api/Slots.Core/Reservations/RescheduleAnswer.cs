using Slots.Places;

namespace Slots.Reservations;

/// <summary>
/// What the person is told about a move: the target place (null when there is no such place),
/// the reservation as it now is when it moved, the alternatives when the target was full, the
/// bookable days when the target day had passed.
/// </summary>
public sealed record RescheduleAnswer(
    RescheduleStatus Status,
    PlaceInfo? Place = null,
    ReservationDetails? Reservation = null,
    IReadOnlyList<SlotAvailability>? Alternatives = null,
    (DateOnly First, DateOnly Last)? Window = null);
