using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using Slots.Staff;

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
    [property: AllowedValues("booked", "checked-in", "no-show", "cancelled", "cancelled-by-site")] string State,
    [property: Description("When it was checked in, marked a no-show, or cancelled.")] DateTimeOffset? At,
    [property: Description("Who checked it in, or cancelled it for the site (the token's subject).")] string? By,
    [property: Description("The service booked, by its code (GET /api/services).")] string Service);

/// <summary>The day's bookings by state; cancelled counts cancels by the citizen and by the site.</summary>
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

/// <summary>A site's cancel of a block of its slots: one day, the slots starting from <c>from</c> up to (not including) <c>to</c>.</summary>
public sealed record CancelBlockRequest(
    [property: Required, Day, Description("The day; today at the place or later.")] string? Day,
    [property: TimeOfDay, Description("The first start time in the block; the day's start when left out.")] string? From,
    [property: TimeOfDay, Description("Slots starting at or after this time are not in the block; the day's end when left out.")] string? To,
    [property: Required, StringLength(BlockCancelOptions.MaxReason, MinimumLength = 1),
        Description("Why, in a few words: every person booked gets it in their SMS, with a link to book again.")] string? Reason);

/// <summary>
/// Where a block cancel stands. Cancelled: bookings cancelled, each with its SMS queued. Kept: bookings left as they were
/// (checked in at the door, or already started). Created is false when the same block was asked for before.
/// </summary>
public sealed record BlockCancelDto(
    long Id,
    int PlaceId,
    [property: Day] string Day,
    [property: TimeOfDay] string From,
    [property: Description("The end of the block (24:00: the day's end).")] string To,
    string Reason,
    int Cancelled,
    int Kept,
    bool Finished,
    bool Created,
    DateTimeOffset CreatedAt,
    DateTimeOffset? FinishedAt);
