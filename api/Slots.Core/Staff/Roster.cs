using Slots.Reservations;

namespace Slots.Staff;

/// <summary>Where a booking stands on the day.</summary>
public enum RosterState
{
    Booked = 1,
    CheckedIn = 2,
    NoShow = 3,
    Cancelled = 4,

    /// <summary>Cancelled by the site with a block (attendance state 5; At and By say when and who).</summary>
    CancelledBySite = 5,
}

/// <summary>One booking on a place's day, as staff see it (the phone unmasked here; the API masks it), with the service booked.</summary>
public sealed record RosterRow(
    string Code,
    int StartMinute,
    int Minutes,
    int SeatNo,
    string Name,
    string Phone,
    string Language,
    RosterState State,
    DateTimeOffset? At,
    string? By,
    int ServiceId = Catalogue.ServiceIds.Default);

/// <summary>A place's day, narrowed by start time, state, code and service; a page of it.</summary>
public sealed record RosterQuery(int PlaceId, DateOnly Day, int FromMinute, int ToMinute, RosterState? State, string? Code, int Page, int PageSize,
    int? ServiceId = null);

/// <summary>How many bookings of the day (before the state and code filters) are in each state.</summary>
public sealed record RosterCounts(int Booked, int CheckedIn, int NoShow, int Cancelled)
{
    public static RosterCounts Of(IEnumerable<RosterRow> rows)
    {
        int booked = 0, checkedIn = 0, noShow = 0, cancelled = 0;
        foreach (var row in rows)
        {
            switch (row.State)
            {
                case RosterState.Booked: booked++; break;
                case RosterState.CheckedIn: checkedIn++; break;
                case RosterState.NoShow: noShow++; break;
                case RosterState.Cancelled or RosterState.CancelledBySite: cancelled++; break;
            }
        }
        return new RosterCounts(booked, checkedIn, noShow, cancelled);
    }
}

public sealed record RosterPage(IReadOnlyList<RosterRow> Rows, int Total, RosterCounts Counts);

/// <summary>A booking as the door sees it: whose it is and when, to decide a check-in.</summary>
public sealed record DoorBooking(ReservationDetails Reservation, RosterState State, DateTimeOffset? At, string? By);
