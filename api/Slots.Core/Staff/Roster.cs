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
    public static RosterCounts Of(IEnumerable<RosterEntry> entries)
    {
        int booked = 0, checkedIn = 0, noShow = 0, cancelled = 0;
        foreach (var entry in entries)
        {
            switch (entry.State)
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

/// <summary>
/// One booking of the day without its person: all a roster needs to filter, order, count and page the
/// day, so that only the page's bookings bring their names and phones from the database.
/// </summary>
public sealed record RosterEntry(string Code, int StartMinute, int Minutes, int SeatNo, int ServiceId, RosterState State, DateTimeOffset? At, string? By)
{
    public RosterRow With(string name, string phone, string language) =>
        new(Code, StartMinute, Minutes, SeatNo, name, phone, language, State, At, By, ServiceId);
}

/// <summary>The bookings of the query's page, in the roster's order, with how many matched and the day's counts.</summary>
public sealed record RosterSelection(IReadOnlyList<RosterEntry> Page, int Total, RosterCounts Counts)
{
    public static RosterSelection Of(IReadOnlyList<RosterEntry> day, RosterQuery query)
    {
        var matching = day
            .Where(r => r.StartMinute >= query.FromMinute && r.StartMinute <= query.ToMinute)
            .Where(r => query.State is null || r.State == query.State)
            .Where(r => query.Code is null || string.Equals(r.Code, query.Code, StringComparison.Ordinal))
            .Where(r => query.ServiceId is null || r.ServiceId == query.ServiceId)
            .OrderBy(r => r.StartMinute).ThenBy(r => r.SeatNo).ThenBy(r => r.State).ThenBy(r => r.Code, StringComparer.Ordinal)
            .ToList();
        var page = matching.Skip((query.Page - 1) * query.PageSize).Take(query.PageSize).ToList();
        return new RosterSelection(page, matching.Count, RosterCounts.Of(day));
    }
}

public sealed record RosterPage(IReadOnlyList<RosterRow> Rows, int Total, RosterCounts Counts);

/// <summary>A booking as the door sees it: whose it is and when, to decide a check-in.</summary>
public sealed record DoorBooking(ReservationDetails Reservation, RosterState State, DateTimeOffset? At, string? By);
