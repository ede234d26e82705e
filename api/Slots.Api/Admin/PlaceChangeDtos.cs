using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using Slots.Api.Places;
using Slots.Staff;

namespace Slots.Api.Admin;

/// <summary>A place's new name, address, region and opening hours: every field is set (a left-out openingHours clears it).</summary>
public sealed record EditPlaceRequest(
    [property: Required, StringLength(200, MinimumLength = 1), RegularExpression(Patterns.Text)] string? Name,
    [property: Required, StringLength(300, MinimumLength = 1), RegularExpression(Patterns.Text)] string? Address,
    [property: Required, StringLength(100, MinimumLength = 1), RegularExpression(Patterns.Text)] string? Region,
    [property: StringLength(PlaceChangeLimits.OpeningHours, MinimumLength = 1), RegularExpression(Patterns.Text),
        Description("As the place states them, e.g. \"Po-Pi 8:00-16:00\"; shown on the place page. Left out or null: none.")] string? OpeningHours);

/// <summary>Close a place to new bookings from today on.</summary>
public sealed record ClosePlaceRequest(
    [property: Required, StringLength(BlockCancelOptions.MaxReason, MinimumLength = 1),
        Description("Why, in a few words: each person whose booking is cancelled gets it in their SMS; kept in the audit trail.")] string? Reason,
    [property: Required, Description("True: the bookings stay and only new ones are refused. False: every booking not yet started "
        + "or checked in is cancelled, each person told by SMS.")] bool? KeepBookings);

/// <summary>What a close did: the days with slots it closed, the bookings it cancelled (each told by SMS) and those it kept.</summary>
public sealed record ClosePlaceDto(int PlaceId, int Days, int Cancelled, int Kept);

/// <summary>What a reopen did: the days it opened again.</summary>
public sealed record ReopenPlaceDto(int PlaceId, int Days);

/// <summary>The seats of a place's slots of one service from a day to a day, or only those starting at one time.</summary>
public sealed record SetCapacityRequest(
    [property: StringLength(32, MinimumLength = 1), RegularExpression(ServiceDto.CodePattern),
        Description("The service whose slots change; left out: the place's only service.")] string? Service,
    [property: Required, Day, Description("The first day; not in the past.")] string? From,
    [property: Required, Day, Description("The last day, at most 366 days after from.")] string? To,
    [property: RegularExpression(Patterns.Time),
        Description("Only the slots starting at this time (HH:mm); left out: every slot of those days.")] string? Time,
    [property: Required, Range(1, 10_000), Description("The seats each slot has from now on; slots that started keep theirs.")] int? Seats);

/// <summary>What a capacity change did.</summary>
/// <param name="Slots">The slots whose seats changed.</param>
/// <param name="SeatsAdded">Seats added; bookable at once unless kept for the waiting list.</param>
/// <param name="HeldForWaitingList">Of the seats added, those kept for the place's waiting list, which is offered them first.</param>
/// <param name="SeatsRemoved">Free seats removed from slots inside the booking window (a later day has no seat rows: only its count changes).</param>
public sealed record CapacityDto(int PlaceId, string Service, int Slots, int SeatsAdded, int HeldForWaitingList, int SeatsRemoved);

/// <summary>A booking that stands in the way of a cut.</summary>
public sealed record BookingInTheWayDto(string Code, [property: Day] string Day, [property: RegularExpression(Patterns.Time)] string Time);

internal static class PlaceChangeLimits
{
    public const int OpeningHours = 500;
}
