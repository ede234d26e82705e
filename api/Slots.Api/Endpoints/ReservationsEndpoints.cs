using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Slots.Api.Contracts;
using Slots.Api.Metrics;
using Slots.Api.OpenApi;
using Slots.Api.Problems;
using Slots.Places;
using Slots.Reservations;
using Slots.WaitingRoom;

namespace Slots.Api.Endpoints;

/// <summary>Booking, looking up, cancelling and rescheduling a reservation.</summary>
internal static class ReservationsEndpoints
{
    public static IEndpointRouteBuilder MapReservations(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/reservations")
            .WithTags("Reservations")
            .RequireRateLimiting(RateLimits.Writes)
            .Problems([.. ProblemCatalog.Shedding, ProblemCatalog.ValidationFailed]);
        group.MapPost("/", Reserve).WithName("Reserve").Accepts<ReserveRequest>("application/json")
            .WithReservationMetrics("reserve", "reserved")
            .WithSummary("Book a seat")
            .WithDescription("Takes a free seat of the slot for the person, in one atomic step with the SMS that confirms it. "
                + "A retry with the same Idempotency-Key (after a timeout, a 429 or a 503) answers what the first request did, "
                + "with Idempotent-Replayed: true, and never books twice.")
            .Header(ReservationRequests.IdempotencyHeader, true,
                "A new random value (e.g. a UUID) per booking, the same on every retry of it: 8 to 100 letters, digits or - _ . :", 8, 100)
            .WaitingRoomToken()
            .Problems(ProblemCatalog.UnknownPlace, ProblemCatalog.UnknownSlot, ProblemCatalog.SlotFull, ProblemCatalog.AlreadyBooked,
                ProblemCatalog.SlotStarted, ProblemCatalog.RequestInProgress, ProblemCatalog.IdempotencyKeyReused,
                ProblemCatalog.BodyTooLarge, ProblemCatalog.UnsupportedMediaType)
            .Problems(ProblemCatalog.WaitingRoomGate);
        group.MapGet("/{code}", Find).WithName("FindReservation").RequireRateLimiting(RateLimits.Reads)
            .WithReservationMetrics("find", "found")
            .WithSummary("Look a reservation up")
            .WithDescription("The reservation with this confirmation code, when the phone or national id in the headers matches it.")
            .ContactProof()
            .Problems(ProblemCatalog.ReservationNotFound);
        group.MapDelete("/{code}", Cancel).WithName("CancelReservation")
            .WithReservationMetrics("cancel", "cancelled")
            .WithSummary("Cancel a reservation")
            .WithDescription("Frees the seat and sends the cancellation SMS. A reservation whose slot has begun cannot be cancelled.")
            .ContactProof()
            .Problems(ProblemCatalog.ReservationNotFound, ProblemCatalog.ReservationStarted);
        group.MapPost("/{code}/reschedule", Reschedule).WithName("RescheduleReservation").Accepts<RescheduleRequest>("application/json")
            .WithReservationMetrics("reschedule", "rescheduled")
            .WithSummary("Move a reservation to another slot")
            .WithDescription("Takes a seat of the new slot and frees the old one in one step, keeping the code; "
                + "when the new slot is full the reservation stays as it was.")
            .ContactProof()
            .WaitingRoomToken()
            .Problems(ProblemCatalog.ReservationNotFound, ProblemCatalog.UnknownPlace, ProblemCatalog.UnknownSlot, ProblemCatalog.SlotFull,
                ProblemCatalog.SlotStarted, ProblemCatalog.ReservationStarted, ProblemCatalog.RescheduleAcrossWindow,
                ProblemCatalog.BodyTooLarge, ProblemCatalog.UnsupportedMediaType)
            .Problems(ProblemCatalog.WaitingRoomGate);
        return app;
    }

    public static async Task<Results<Created<ReservationDto>, ProblemHttpResult, ValidationProblem>> Reserve(
        HttpContext http, ReservationService reservations, ReservationRequests requests, WaitingRoomService room, CancellationToken ct)
    {
        var (body, unreadable, invalid) = await JsonBody.ReadAsync(http.Request, SlotsJsonContext.Default.ReserveRequest, ct);
        if (unreadable is not null)
        {
            return unreadable;
        }
        if (invalid is not null)
        {
            return invalid;
        }
        var v = new Validation();
        var key = http.Request.Headers[ReservationRequests.IdempotencyHeader].ToString();
        if (requests.Booking(body!, key, v) is not { } booking)
        {
            return v.ToProblem();
        }

        var pass = await room.EnterAsync(booking.Slot.PlaceId, http.Request.Headers[WaitingRoomProblems.TokenHeader], key, ct);
        if (!pass.Passes)
        {
            return WaitingRoomProblems.Refused(pass, http.Response);
        }
        var answer = await reservations.ReserveAsync(booking, key, ct);
        // A booking still running under this key, or a different one sent with it, may hold the admission: keep it.
        await room.LeaveAsync(pass, booked: answer.Status is ReservationStatus.Reserved or ReservationStatus.InProgress or ReservationStatus.KeyReused);
        return ReservationProblems.Answer(answer, booking.Slot.Day, http.Response, () =>
            TypedResults.Created($"/api/reservations/{answer.Code}", ToDto(answer.Code!, booking.Slot, answer.Place!, answer.Minutes, booking.Name)));
    }

    public static async Task<Results<Ok<ReservationDto>, ProblemHttpResult, ValidationProblem>> Find(
        string code, HttpRequest request, ReservationService reservations, ReservationRequests requests, PlaceDirectory places, CancellationToken ct)
    {
        var v = new Validation();
        var proof = requests.Proof(request, v);
        if (proof is null)
        {
            return v.ToProblem();
        }
        var normalized = ConfirmationCode.Normalize(code);
        var found = normalized is null ? null : await reservations.FindAsync(normalized, proof.Value, ct);
        if (found is null || await places.FindAsync(found.Slot.PlaceId, ct) is not { } place)
        {
            return Problem.ReservationNotFound();
        }
        return TypedResults.Ok(ToDto(found.Code, found.Slot, place, found.Minutes, found.Name));
    }

    public static async Task<Results<NoContent, ProblemHttpResult, ValidationProblem>> Cancel(
        string code, HttpRequest request, ReservationService reservations, ReservationRequests requests, CancellationToken ct)
    {
        var v = new Validation();
        var proof = requests.Proof(request, v);
        if (proof is null)
        {
            return v.ToProblem();
        }
        var normalized = ConfirmationCode.Normalize(code);
        var status = normalized is null ? CancelStatus.NotFound : await reservations.CancelAsync(normalized, proof.Value, ct);
        return ReservationProblems.Answer(status);
    }

    public static async Task<Results<Ok<ReservationDto>, ProblemHttpResult, ValidationProblem>> Reschedule(
        string code, HttpContext http, ReservationService reservations, ReservationRequests requests, WaitingRoomService room, CancellationToken ct)
    {
        var (body, unreadable, invalid) = await JsonBody.ReadAsync(http.Request, SlotsJsonContext.Default.RescheduleRequest, ct);
        if (unreadable is not null)
        {
            return unreadable;
        }
        if (invalid is not null)
        {
            return invalid;
        }
        var v = new Validation();
        var proof = requests.Proof(http.Request, v);
        var target = ReservationRequests.Slot(body!.PlaceId, body.Day, body.Time, v);
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var normalized = ConfirmationCode.Normalize(code);
        if (normalized is null)
        {
            return Problem.ReservationNotFound();
        }
        // The admission is held under the reservation's code: a retried move passes again, another booking does not.
        var pass = await room.EnterAsync(target!.Value.PlaceId, http.Request.Headers[WaitingRoomProblems.TokenHeader], "move:" + normalized, ct);
        if (!pass.Passes)
        {
            return WaitingRoomProblems.Refused(pass, http.Response);
        }
        var answer = await reservations.RescheduleAsync(normalized, proof!.Value, target!.Value, ct);
        await room.LeaveAsync(pass, booked: answer.Status == RescheduleStatus.Rescheduled);
        return ReservationProblems.Answer(answer, target.Value.Day, () =>
            TypedResults.Ok(ToDto(normalized, target.Value, answer.Place!, answer.Reservation!.Minutes, answer.Reservation.Name)));
    }

    private static ReservationDto ToDto(string code, SlotKey slot, PlaceInfo place, int minutes, string name) =>
        new(code, place.Id, place.Name, place.Address, Formats.Day(slot.Day), Formats.Time(slot.StartMinute), minutes, name);
}
