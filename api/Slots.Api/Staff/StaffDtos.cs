using System.ComponentModel;
using System.ComponentModel.DataAnnotations;

namespace Slots.Api.Staff;

/// <summary>Who is signed in: the subject, the highest staff role, and the places it covers (empty for admin: all).</summary>
public sealed record StaffMeDto(string Subject, [property: AllowedValues("site-staff", "site-manager", "admin")] string Role, IReadOnlyList<int> Places);

/// <summary>One booking of the day: the phone masked, never the national id.</summary>
public sealed record RosterRowDto(
    [property: TimeOfDay] string Time,
    int Minutes,
    int Seat,
    string Code,
    string Name,
    [property: Description("The phone with all but its country code and last three digits hidden.")] string Phone,
    [property: AllowedValues("sk", "en")] string Language,
    [property: AllowedValues("booked", "checked-in", "no-show", "cancelled")] string State,
    [property: Description("When it was checked in, marked a no-show, or cancelled.")] DateTimeOffset? At,
    [property: Description("Who checked it in (the token's subject).")] string? By);

public sealed record RosterCountsDto(int Booked, int CheckedIn, int NoShow, int Cancelled);

/// <summary>A page of a place's day, with the day's counts by state (before the filters).</summary>
public sealed record RosterDto(int PlaceId, [property: Day] string Day, RosterCountsDto Counts, int Page, int PageSize, int Total, IReadOnlyList<RosterRowDto> Rows);

/// <summary>A check-in at the door: the code typed or scanned, and optionally the person's national id to confirm who stands there.</summary>
public sealed record CheckInRequest(
    [property: Required, StringLength(32, MinimumLength = 1), Description("The booking code, as typed or read from its QR code.")] string? Code,
    [property: StringLength(40, MinimumLength = 1), RegularExpression(Patterns.NationalId),
        Description("The national id the person shows; checked against the booking's keyed hash, never stored.")] string? NationalId);

/// <summary>The check-in that holds: this one, or the first when the booking was checked in already.</summary>
public sealed record CheckInDto(
    string Code,
    [property: TimeOfDay] string Time,
    string Name,
    [property: Description("True when this answers a second check-in: at and by are the first's.")] bool AlreadyCheckedIn,
    DateTimeOffset At,
    string By);

/// <summary>One staff action from the trail.</summary>
public sealed record AuditEntryDto(long Id, DateTimeOffset At, string Actor, int? PlaceId, string Action, string? Target, string? Reason);
