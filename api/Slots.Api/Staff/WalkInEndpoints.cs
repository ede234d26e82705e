using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Reservations;
using Slots.Places;
using Slots.Reservations;
using Slots.Staff;
using Slots.Window;

namespace Slots.Api.Staff;

/// <summary>A booking site staff make for a person at the door or on the phone.</summary>
public sealed record WalkInRequest(
    [property: Day, Description("The slot's day; today at the place when left out.")] string? Day,
    [property: Required, TimeOfDay, Description("The slot's start.")] string? Time,
    [property: Required, StringLength(100, MinimumLength = 1), RegularExpression(Patterns.Text), Description("The person's name.")] string? Name,
    [property: Required, StringLength(32, MinimumLength = 1), PhoneInput, Description("The person's phone: it finds, moves and cancels the booking, and gets the SMS.")]
    string? Phone,
    [property: Required, StringLength(40, MinimumLength = 1), RegularExpression(Patterns.NationalId), Description("The person's national id; only its keyed hash is stored.")]
    string? NationalId,
    [property: AllowedValues("sk", "en"), Description("The SMS language; sk when left out.")] string? Language = null,
    [property: StringLength(32, MinimumLength = 1), RegularExpression(Places.ServiceDto.CodePattern),
        Description("The service; left out at a place with one service, that one.")]
    string? Service = null,
    [property: StringLength(40, MinimumLength = 12), RegularExpression(Patterns.InvitationCode),
        Description("The person's invitation code, where the service takes one.")]
    string? Invitation = null,
    [property: Description("Whether the confirmation SMS goes to the person; true when left out.")] bool? Sms = null,
    [property: Description("Check the person in at once (they are at the door); the booking stands even when the check-in is refused, e.g. too early.")]
    bool? CheckIn = null);

/// <summary>A walk-in's answer: the booking, and how its check-in went where one was asked for.</summary>
public sealed record WalkInDto(
    ReservationDto Reservation,
    [property: Description("Whether the confirmation SMS was sent.")] bool Sms,
    [property: Description("The check-in's outcome where checkIn was asked: checked-in, too-early, too-late or other-day (the booking stands either way).")]
    string? CheckIn = null);

/// <summary>
/// Walk-ins and bookings on someone's behalf (issue 41 item 4): site staff book at their own place
/// (admins anywhere) through the same ReservationService as the person's own booking, so eligibility,
/// one booking per person and service, and idempotency hold alike; who booked is written to the audit
/// trail in the booking's transaction; the SMS is optional; "check in now" follows in the same request.
/// </summary>
internal static class WalkInEndpoints
{
    public static RouteGroupBuilder MapWalkIns(this RouteGroupBuilder place)
    {
        place.MapPost("/walk-ins", Book).WithName("BookWalkIn").RequireRateLimiting(RateLimits.Writes)
            .AtPlace(StaffRoles.SiteStaff)
            .WithJsonBody<WalkInRequest>()
            .WithSummary("Book for a person at the door or on the phone")
            .WithDescription("Takes a seat of the place's slot for the person under the same rules as their own booking: who may book, "
                + "one active booking per person and service, and the Idempotency-Key (a retry answers what the first request did). "
                + "No waiting room: staff serve the person in front of them. The audit trail records the booking as walk-in with who made "
                + "it, in the booking's own transaction. sms false books without the confirmation SMS; checkIn true checks the person in "
                + "as the door would, and a refused check-in (too early) leaves the booking made. Site staff at their places, managers, admins.")
            .Header(ReservationRequests.IdempotencyHeader, true,
                "A new random value (e.g. a UUID) per booking, the same on every retry of it: 8 to 100 letters, digits or - _ . :", 8, 100,
                Patterns.IdempotencyKey)
            .Location()
            .ResponseHeader(StatusCodes.Status201Created, ReservationProblems.ReplayedHeader,
                "true when this answers a retry: the booking was made by the first request with this Idempotency-Key.", required: false)
            .Problems(ProblemTypes.ValidationFailed, ProblemTypes.UnknownPlace, ProblemTypes.UnknownSlot, ProblemTypes.SlotFull,
                ProblemTypes.AlreadyBooked, ProblemTypes.SlotStarted, ProblemTypes.PlaceClosed, ProblemTypes.RequestInProgress,
                ProblemTypes.IdempotencyKeyReused, ProblemTypes.UnknownService, ProblemTypes.NotEligible);
        return place;
    }

    public static async Task<Results<Created<WalkInDto>, ProblemHttpResult, ValidationProblem>> Book(
        string placeId, JsonBody<WalkInRequest> body, HttpContext http, ReservationService reservations, ReservationRequests requests,
        PlaceDirectory places, StaffService staff, TimeProvider clock, CancellationToken ct)
    {
        Formats.TryId(placeId, out int id); // the place filter has checked it
        var sent = body.Value;
        var day = sent.Day;
        if (day is null && await places.FindAsync(id, ct) is { } found)
        {
            day = Formats.Day(LocalClock.Today(found, clock.GetUtcNow()));
        }
        var v = new Validation();
        var key = http.Request.Headers[ReservationRequests.IdempotencyHeader].ToString();
        var asBooking = new ReserveRequest(id, day, sent.Time, sent.Name, sent.Phone, sent.NationalId, sent.Language, sent.Service, sent.Invitation);
        if (requests.Booking(asBooking, key, v) is not { } booking)
        {
            return v.ToProblem();
        }
        var by = StaffMember.Of(http.User).Subject;
        var sms = sent.Sms ?? true;
        var answer = await reservations.ReserveAsync(booking with { BookedBy = by, Sms = sms }, key, ct);
        string? checkIn = null;
        if (answer.Status == ReservationStatus.Reserved && sent.CheckIn == true)
        {
            var door = await staff.CheckInAsync(id, answer.Code!, null, by, ct);
            checkIn = door.Status switch
            {
                CheckInStatus.CheckedIn or CheckInStatus.AlreadyCheckedIn => "checked-in",
                CheckInStatus.TooEarly => "too-early",
                CheckInStatus.TooLate => "too-late",
                CheckInStatus.OtherDay => "other-day",
                var other => throw new InvalidOperationException($"A booking just made checked in as {other}."),
            };
        }
        return ReservationProblems.Answer(answer, booking.Slot.Day, http.Response, () =>
            TypedResults.Created($"/api/reservations/{answer.Code}", new WalkInDto(
                ReservationsEndpoints.ToDto(answer.Code!, booking.Slot, answer.Place!, answer.Minutes, booking.Name, answer.Service!.Code, answer.Second), sms, checkIn)));
    }
}
