using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
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

internal static class PlaceChangeLimits
{
    public const int OpeningHours = 500;
}
