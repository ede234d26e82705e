using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Reservations;
using Slots.Catalogue;
using Slots.Eligibility;
using Slots.Places;
using Slots.Reservations;
using Slots.WaitingList;
using Slots.Window;

namespace Slots.Api.WaitingList;

/// <summary>
/// A place's waiting list: join when no seat is free on the days wanted, see the place in line, claim
/// a seat held for you, leave. The entry is found by its token, sent in a header (never in the path).
/// </summary>
internal static class WaitingListEndpoints
{
    public const string TokenHeader = "Slots-Waiting-List-Token";

    public static IEndpointRouteBuilder MapWaitingList(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/waiting-list").WithTags("Waiting list").PersonalData()
            .Problems([.. ProblemTypes.Shedding, ProblemTypes.ValidationFailed]);
        group.MapPost("", Join).WithName("JoinWaitingList").RequireRateLimiting(RateLimits.Writes)
            .WithJsonBody<JoinWaitingListRequest>()
            .WithSummary("Join a place's waiting list")
            .WithDescription("When no seat of the service is free at the place on the days wanted (seats-free otherwise: book one). The "
                + "service may be left out where the place offers one; where it offers several, a join naming none is refused naming "
                + "service. One entry per person and place (waiting-list-joined, with the position, for a second join). When a seat of "
                + "the service frees there, the first in line whose service and days match gets an SMS and the seat is held for them "
                + "alone (Slots:WaitingList:Hold, or BackfillHold for a seat starting within BackfillWithin). A person who books the "
                + "service anywhere leaves the list. The answer's token is the entry's key. A line is for people the service admits: "
                + "one its age rule refuses gets 403 not-eligible, as a booking would; a service for invitation holders has no line.")
            .Problems(ProblemTypes.UnknownPlace, ProblemTypes.UnknownService, ProblemTypes.SeatsFree, ProblemTypes.WaitingListJoined,
                ProblemTypes.AlreadyBooked, ProblemTypes.NotEligible);
        var entry = group.MapGroup("/entry")
            .Header(TokenHeader, true, "The entry's token, from the join's answer or the offer SMS's link.", 32, 32, "^[0-9a-f]{32}$")
            .Problems(ProblemTypes.WaitingListEntryNotFound, ProblemTypes.ValidationFailed);
        entry.MapGet("", Find).WithName("GetWaitingListEntry").RequireRateLimiting(RateLimits.Reads)
            .WithSummary("Where the entry stands")
            .WithDescription("The place in line, the seat held for the entry (with its expiry) or the booking made from it.");
        entry.MapDelete("", Leave).WithName("LeaveWaitingList").RequireRateLimiting(RateLimits.Writes)
            .WithSummary("Leave the waiting list")
            .WithDescription("A seat held for the entry goes to the next in line.");
        entry.MapPost("/claim", Claim).WithName("ClaimWaitingListOffer").RequireRateLimiting(RateLimits.Writes)
            .WithSummary("Book the seat held for the entry")
            .WithDescription("In one step with the hold's end: the seat is booked for the entry's person (the confirmation SMS follows) "
                + "or stays held. At a two-dose service the second dose is booked with it, at the earliest free seat at the same time within "
                + "the interval, or neither is. A claim again answers the same booking.")
            .Problems(ProblemTypes.OfferNotFound, ProblemTypes.OfferExpired, ProblemTypes.AlreadyBooked, ProblemTypes.SecondDoseFull);
        return app;
    }

    public static async Task<Results<Created<WaitingListEntryDto>, ProblemHttpResult, ValidationProblem>> Join(
        JsonBody<JoinWaitingListRequest> body, WaitingListService lists, ReservationRequests requests, PlaceDirectory places,
        ServiceDirectory services, TimeProvider clock, CancellationToken ct)
    {
        var request = body.Value;
        var v = new Validation();
        if (request.PlaceId is null or < 1)
        {
            v.Add("placeId", "The place id is required: a whole number from 1.");
        }
        var from = Day(request.From, "from", v);
        var to = Day(request.To, "to", v);
        if (from is { } first && to is { } last)
        {
            if (last < first)
            {
                v.Add("to", "The last day must not be before the first.");
            }
            else if (last.DayNumber - first.DayNumber >= lists.Options.MaxDays)
            {
                v.Add("to", $"At most {lists.Options.MaxDays} days from the first.");
            }
        }
        var person = requests.Person(request.Name, request.Phone, request.NationalId, request.Language, v);
        ReservationRequests.ServiceCode(request.Service, "service", v);
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        if (await places.FindAsync(request.PlaceId!.Value, ct) is not { Active: true } place)
        {
            return Problem.UnknownPlace();
        }
        if (from!.Value < LocalClock.Today(place, clock.GetUtcNow()))
        {
            v.Add("from", "A day that has passed: the first day is today at the place or later.");
            return v.ToProblem();
        }
        // The same choice as a booking's (ServiceChoice): the one named, or the place's only service.
        var choice = ServiceChoice.Of(await services.OfferedAtAsync(place.Id, ct), request.Service);
        if (choice.Refusal is { } refused)
        {
            return refused == ReservationStatus.ServiceRequired
                ? ReservationProblems.ServiceRequired(choice.Codes)
                : ReservationProblems.UnknownService();
        }
        var serviceId = choice.Service!.Id;
        // A line is for people the service admits: an offer from it books without asking the rule again
        // (age steps only widen). A service for invitation holders has no line: its codes book directly.
        if (EligibilityDecision.For(choice.Service.Eligibility, person!.BornOn, null, clock.GetUtcNow()) is { Eligible: false } refusal)
        {
            return ReservationProblems.NotEligible(new BookingAnswer(ReservationStatus.NotEligible, Place: place, Refusal: refusal));
        }
        var answer = await lists.JoinAsync(place.Id, serviceId, from.Value, to!.Value, person!.PersonHash, person.Phone, person.Name,
            person.Language, ct);
        return answer.Status switch
        {
            JoinStatus.Joined => TypedResults.Created("/api/waiting-list/entry",
                new WaitingListEntryDto(answer.Token, place.Id, Formats.Day(from.Value), Formats.Day(to.Value), "waiting", answer.Position, null, null)),
            JoinStatus.AlreadyOnList => Problem.Of(ProblemTypes.WaitingListJoined, "You are on this place's waiting list already.",
                extensions: [new("position", answer.Position)]),
            JoinStatus.SeatsFree => Problem.Of(ProblemTypes.SeatsFree, "Seats are free at the place on those days: book one."),
            JoinStatus.AlreadyBooked => Problem.Of(ProblemTypes.AlreadyBooked, "You hold a booking of this service already: one at a time."),
            _ => throw new InvalidOperationException($"Unmapped join status {answer.Status}."),
        };
    }

    public static async Task<Results<Ok<WaitingListEntryDto>, ProblemHttpResult, ValidationProblem>> Find(
        HttpRequest request, WaitingListService lists, CancellationToken ct)
    {
        var v = new Validation();
        if (Token(request, v) is not { } token)
        {
            return v.ToProblem();
        }
        return await lists.FindAsync(token, ct) is { } found ? TypedResults.Ok(ToDto(found)) : EntryNotFound();
    }

    public static async Task<Results<NoContent, ProblemHttpResult, ValidationProblem>> Leave(HttpRequest request, WaitingListService lists, CancellationToken ct)
    {
        var v = new Validation();
        if (Token(request, v) is not { } token)
        {
            return v.ToProblem();
        }
        return await lists.LeaveAsync(token, ct) ? TypedResults.NoContent() : EntryNotFound();
    }

    public static async Task<Results<Created<ReservationDto>, ProblemHttpResult, ValidationProblem>> Claim(
        HttpRequest request, WaitingListService lists, PlaceDirectory places, ServiceDirectory services, CancellationToken ct)
    {
        var v = new Validation();
        if (Token(request, v) is not { } token)
        {
            return v.ToProblem();
        }
        var answer = await lists.ClaimAsync(token, ct);
        switch (answer.Status)
        {
            case ClaimStatus.Claimed when await places.FindAsync(answer.Slot!.Value.PlaceId, ct) is { } place:
                var found = await lists.FindAsync(token, ct);
                return TypedResults.Created($"/api/reservations/{answer.Code}",
                    ReservationsEndpoints.ToDto(answer.Code!, answer.Slot.Value, place, answer.Minutes, found?.Name ?? "",
                        await ReservationsEndpoints.CodeOfAsync(services, answer.Slot.Value, ct), answer.Second));
            case ClaimStatus.SecondDoseFull:
                return Problem.Of(ProblemTypes.SecondDoseFull,
                    "No seat is free for the second dose within its interval at this place: nothing was booked, and the seat stays held for you until the offer ends.");
            case ClaimStatus.Expired:
                return Problem.Of(ProblemTypes.OfferExpired, "The hold ran out: the seat went to the next in line.");
            case ClaimStatus.AlreadyBooked:
                return Problem.Of(ProblemTypes.AlreadyBooked, "You hold another booking now: one at a time.");
            default:
                return Problem.Of(ProblemTypes.OfferNotFound, "No seat is held for this entry.");
        }
    }

    /// <summary>The entry's token from its header, or null with the header named in the errors.</summary>
    private static string? Token(HttpRequest request, Validation v)
    {
        if (request.Headers[TokenHeader] is { Count: 1 } values && WaitingListService.IsToken(values[0]))
        {
            return values[0];
        }
        v.Add(TokenHeader, request.Headers.ContainsKey(TokenHeader)
            ? "Not a waiting-list token: 32 lower-case hexadecimal digits."
            : "The entry's token is required (from the join's answer or the offer SMS's link).");
        return null;
    }

    private static ProblemHttpResult EntryNotFound() =>
        Problem.Of(ProblemTypes.WaitingListEntryNotFound, "No waiting-list entry has this token.");

    private static DateOnly? Day(string? value, string field, Validation v)
    {
        if (value is null)
        {
            v.Add(field, "The day is required.");
            return null;
        }
        return Formats.DayOrNull(value, field, v);
    }

    private static WaitingListEntryDto ToDto(EntryView e) => new(null, e.PlaceId, Formats.Day(e.From), Formats.Day(e.To),
        e.State switch
        {
            EntryState.Waiting => "waiting",
            EntryState.Offered => "offered",
            EntryState.Booked => "booked",
            EntryState.Left => "left",
            _ => "expired",
        },
        e.Position,
        e.Offer is { } o ? new WaitingListOfferDto(Formats.Day(o.Slot.Day), Formats.Time(o.Slot.StartMinute), o.Minutes, o.ExpiresAt) : null,
        e.BookedCode);
}
