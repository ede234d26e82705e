using System.ComponentModel;
using System.ComponentModel.DataAnnotations;

namespace Slots.Api.WaitingList;

/// <summary>Joining a place's waiting list: the days one could come, and who one is (as for a booking).</summary>
public sealed record JoinWaitingListRequest(
    [property: Required, Range(1, int.MaxValue), Description("The place's id.")] int? PlaceId,
    [property: Required, Day, Description("The first day one could come; today at the place or later.")] string? From,
    [property: Required, Day, Description("The last day one could come; at most Slots:WaitingList:MaxDays after the first.")] string? To,
    [property: Required, StringLength(100, MinimumLength = 1), RegularExpression(Patterns.Text), Description("The name a booking from the list is under.")] string? Name,
    [property: Required, StringLength(32, MinimumLength = 1), PhoneInput, Description("The phone the offer SMS goes to.")] string? Phone,
    [property: Required, StringLength(40, MinimumLength = 1), RegularExpression(Patterns.NationalId), Description("The person's national id; only its keyed hash is stored.")] string? NationalId,
    [property: AllowedValues("sk", "en"), Description("The SMS language; sk when left out.")] string? Language,
    [property: StringLength(32, MinimumLength = 1), RegularExpression("^[a-z0-9-]{1,32}$"),
        Description("The service waited for (its code, GET /api/services); may be left out at a place that offers one service.")] string? Service = null);

/// <summary>A seat held for the entry's person until <c>expiresAt</c>.</summary>
public sealed record WaitingListOfferDto([property: Day] string Day, [property: TimeOfDay] string Time, int Minutes, DateTimeOffset ExpiresAt);

/// <summary>
/// An entry of a waiting list as its person sees it. The token is given once, when joining: it is the
/// entry's key (send it in Slots-Waiting-List-Token) and is in the offer SMS's link.
/// </summary>
public sealed record WaitingListEntryDto(
    [property: Description("The entry's key: only in the answer to the join.")] string? Token,
    int PlaceId,
    [property: Day] string From,
    [property: Day] string To,
    [property: AllowedValues("waiting", "offered", "booked", "left", "expired"),
        Description("waiting in line; offered: a seat is held (offer); booked through the offer (bookedCode); left; expired: the hold ran out.")] string State,
    [property: Description("The place in line among those waiting or offered at the place, from 1; 0 when no longer in line.")] int Position,
    [property: NullWhenNone, Description("The seat held for the entry while offered; null otherwise.")] WaitingListOfferDto? Offer,
    string? BookedCode);
