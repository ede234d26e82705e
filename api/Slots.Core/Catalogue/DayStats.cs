namespace Slots.Catalogue;

/// <summary>
/// One day's totals for admins: the catalogue's slots and seats, the active reservations hot and
/// cold, and what the door recorded (checked in, no-shows).
/// </summary>
public sealed record DayStats(DateOnly Day, int Slots, long Seats, long FreeSeats, long Reservations, long CheckedIn, long NoShows)
{
    public static DayStats Of(DateOnly day, int slots, long seats, long reservations, long checkedIn, long noShows) =>
        new(day, slots, seats, Math.Max(0, seats - reservations), reservations, checkedIn, noShows);
}
