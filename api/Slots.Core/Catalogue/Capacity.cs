namespace Slots.Catalogue;

/// <summary>
/// Sets the seats of a place's published slots of one service: every slot of [From, To] (or only
/// those starting at <see cref="StartMinute"/>) not yet started gets <see cref="Seats"/> seats.
/// Slots below it gain seats, slots above it are cut where their seats are free.
/// </summary>
public sealed record CapacityChange(int PlaceId, int ServiceId, DateOnly From, DateOnly To, int? StartMinute, int Seats);

/// <summary>A booking that stands in the way of a cut: its code and its slot.</summary>
public sealed record BookingInTheWay(string Code, DateOnly Day, int StartMinute);

/// <summary>
/// What a capacity change did: the slots it changed, the seats it added (of them, those kept for
/// the waiting list's line) and removed; or, when <see cref="Blocked"/> is set, nothing at all,
/// because some slot holds more bookings than the new seats (the bookings of those slots).
/// </summary>
public sealed record CapacityChanged(int Slots, int SeatsAdded, int HeldForWaitingList, int SeatsRemoved, IReadOnlyList<BookingInTheWay>? Blocked)
{
    public bool Refused => Blocked is not null;

    public static CapacityChanged Refusal(IReadOnlyList<BookingInTheWay> blocked) => new(0, 0, 0, 0, blocked);
}
