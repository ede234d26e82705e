namespace Slots.Catalogue;

/// <summary>One day's totals for admins: the catalogue's slots and seats, and the active reservations hot and cold.</summary>
public sealed record DayStats(DateOnly Day, int Slots, long Seats, long FreeSeats, long Reservations)
{
    public static DayStats Of(DateOnly day, int slots, long seats, long reservations) =>
        new(day, slots, seats, Math.Max(0, seats - reservations), reservations);
}
