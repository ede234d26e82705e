using Slots.Places;

namespace Slots.Reservations;

/// <summary>
/// What the person is told about a booking, with what the answer needs for its body: the place
/// it was decided for (null when there is no such place), the alternatives when the slot was
/// full, the bookable days when the day was outside them, the slot's length when it was booked,
/// the service booked (or, when the place offers several and none was named, their codes), and the
/// second dose of a pair.
/// </summary>
public sealed record BookingAnswer(
    ReservationStatus Status,
    string? Code = null,
    bool Replayed = false,
    IReadOnlyList<SlotAvailability>? Alternatives = null,
    (DateOnly First, DateOnly Last)? Window = null,
    PlaceInfo? Place = null,
    int Minutes = 0,
    Catalogue.ServiceInfo? Service = null,
    IReadOnlyList<string>? Services = null,
    Eligibility.EligibilityDecision? Refusal = null,
    SecondDose? Second = null);
