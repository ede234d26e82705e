namespace Slots.Reservations;

/// <summary>A reservation as the person sees it when looking it up; a pair's first dose carries its second.</summary>
public sealed record ReservationDetails(
    string Code,
    SlotKey Slot,
    int Minutes,
    int SeatNo,
    string Phone,
    string PersonHash,
    string Name,
    string Language,
    DateTimeOffset CreatedAt,
    SecondDose? Second = null);
