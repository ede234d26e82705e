using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Admission;
using Slots.Api.Admission;
using Slots.Catalogue;
using Slots.Places;
using Slots.Reservations;

namespace Slots.Api.Reservations;

/// <summary>Booking, looking up, cancelling and rescheduling a reservation.</summary>
internal static class ReservationsEndpoints
{
    public static IEndpointRouteBuilder MapReservations(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/reservations")
            .WithTags("Reservations")
            .PersonalData()
            .RequireRateLimiting(RateLimits.Writes)
            .RequireConcurrencyLimit()
            .Problems([.. ProblemTypes.Shedding, ProblemTypes.ValidationFailed]);
        group.MapPost("/", Reserve).WithName("Reserve")
            .WithReservationMetrics("reserve", "reserved")
            .WithJsonBody<ReserveRequest>()
            .WithSummary("Book a seat")
            .WithDescription("Takes a free seat of the slot for the person, in one atomic step with the SMS that confirms it. "
                + "A retry with the same Idempotency-Key (after a timeout, a 429 or a 503) answers what the first request did, "
                + "with Idempotent-Replayed: true, and never books twice.")
            .Header(ReservationRequests.IdempotencyHeader, true,
                "A new random value (e.g. a UUID) per booking, the same on every retry of it: 8 to 100 letters, digits or - _ . :", 8, 100,
                Patterns.IdempotencyKey)
            .AdmissionToken()
            .Location()
            .ResponseHeader(StatusCodes.Status201Created, ReservationProblems.ReplayedHeader,
                "true when this answers a retry: the booking was made by the first request with this Idempotency-Key (problems of a replay carry it too).",
                required: false)
            .Problems(ProblemTypes.UnknownPlace, ProblemTypes.UnknownSlot, ProblemTypes.SlotFull, ProblemTypes.AlreadyBooked,
                ProblemTypes.SlotStarted, ProblemTypes.PlaceClosed, ProblemTypes.RequestInProgress, ProblemTypes.IdempotencyKeyReused,
                ProblemTypes.UnknownService, ProblemTypes.SecondDoseFull, ProblemTypes.SecondDoseOutsideInterval, ProblemTypes.NoSecondDose)
            .Problems(ProblemTypes.AdmissionGate);
        group.MapGet("/{code}", Find).WithName("FindReservation").RequireRateLimiting(RateLimits.Reads)
            .WithReservationMetrics("find", "found")
            .WithSummary("Look a reservation up")
            .WithDescription("The reservation with this confirmation code, when the phone or national id in the headers matches it. "
                + "Its owner learns of a cancelled one (410 reservation-cancelled); anyone else gets 404 either way.")
            .ContactProof()
            .Problems(ProblemTypes.WrongProofLimit)
            .Problems(ProblemTypes.ReservationNotFound, ProblemTypes.ReservationCancelled);
        group.MapDelete("/{code}", Cancel).WithName("CancelReservation")
            .WithReservationMetrics("cancel", "cancelled")
            .WithSummary("Cancel a reservation")
            .WithDescription("Frees the seat and sends the cancellation SMS. Cancelling a cancelled reservation again answers 204 and changes nothing. "
                + "A reservation whose slot has begun cannot be cancelled.")
            .ContactProof()
            .Problems(ProblemTypes.WrongProofLimit)
            .Problems(ProblemTypes.ReservationNotFound, ProblemTypes.ReservationStarted, ProblemTypes.ReservationCheckedIn);
        group.MapPost("/{code}/reschedule", Reschedule).WithName("RescheduleReservation")
            .WithReservationMetrics("reschedule", "rescheduled")
            .WithJsonBody<RescheduleRequest>()
            .WithSummary("Move a reservation to another slot")
            .WithDescription("Takes a seat of the new slot (at the same place or another) and frees the old one in one step, keeping the code; "
                + "when the new slot is full the reservation stays as it was.")
            .ContactProof()
            .Problems(ProblemTypes.WrongProofLimit)
            .AdmissionToken()
            .Problems(ProblemTypes.ReservationNotFound, ProblemTypes.UnknownPlace, ProblemTypes.UnknownSlot, ProblemTypes.SlotFull,
                ProblemTypes.SlotStarted, ProblemTypes.ReservationStarted, ProblemTypes.RescheduleAcrossWindow,
                ProblemTypes.PairFirstDoseFixed, ProblemTypes.SecondDoseOutsideInterval, ProblemTypes.NoSecondDose,
                ProblemTypes.ReservationCheckedIn)
            .Problems(ProblemTypes.AdmissionGate);
        return app;
    }

    public static async Task<Results<Created<ReservationDto>, ProblemHttpResult, ValidationProblem>> Reserve(
        JsonBody<ReserveRequest> body, HttpContext http, ReservationService reservations, ReservationRequests requests, AdmissionService room,
        CancellationToken ct)
    {
        var v = new Validation();
        var key = http.Request.Headers[ReservationRequests.IdempotencyHeader].ToString();
        if (requests.Booking(body.Value, key, v) is not { } booking)
        {
            return v.ToProblem();
        }
        var pass = await room.EnterAsync(booking.Slot.PlaceId, http.Request.Headers[AdmissionProblems.TokenHeader], key, ct);
        if (!pass.Passes)
        {
            return AdmissionProblems.Refused(pass, http.Response);
        }
        var answer = await reservations.ReserveAsync(booking, key, ct);
        await room.LeaveAsync(pass, answer.Status);
        return ReservationProblems.Answer(answer, booking.Slot.Day, http.Response, () =>
            TypedResults.Created($"/api/reservations/{answer.Code}",
                ToDto(answer.Code!, booking.Slot, answer.Place!, answer.Minutes, booking.Name, answer.Service!.Code, answer.Second)));
    }

    public static async Task<Results<Ok<ReservationDto>, ProblemHttpResult, ValidationProblem>> Find(
        string code, HttpRequest request, ReservationService reservations, ProofGate gate, PlaceDirectory places, ServiceDirectory services,
        CancellationToken ct)
    {
        var pass = await gate.PassAsync(code, request, new Validation(), ct);
        if (pass.Invalid is { } invalid)
        {
            return invalid;
        }
        if (pass.Refused is { } refused)
        {
            return refused;
        }
        var found = await ProofGate.UnderEitherKeyAsync(pass.Proof, proof => reservations.FindAsync(pass.Code, proof, ct), f => f is null);
        if (found is not null && await places.FindAsync(found.Slot.PlaceId, ct) is { } place)
        {
            return TypedResults.Ok(ToDto(found.Code, found.Slot, place, found.Minutes, found.Name, await CodeOfAsync(services, found.Slot, ct), found.Second));
        }
        if (await ProofGate.UnderEitherKeyAsync(pass.Proof, proof => reservations.WasCancelledAsync(pass.Code, proof, ct), was => !was))
        {
            return ReservationProblems.Cancelled();
        }
        await gate.MissedAsync(pass.Code, ct);
        return Problem.ReservationNotFound();
    }

    public static async Task<Results<NoContent, ProblemHttpResult, ValidationProblem>> Cancel(
        string code, HttpRequest request, ReservationService reservations, ProofGate gate, CancellationToken ct)
    {
        var pass = await gate.PassAsync(code, request, new Validation(), ct);
        if (pass.Invalid is { } invalid)
        {
            return invalid;
        }
        if (pass.Refused is { } refused)
        {
            return refused;
        }
        var status = await ProofGate.UnderEitherKeyAsync(pass.Proof, proof => reservations.CancelAsync(pass.Code, proof, ct),
            s => s == CancelStatus.NotFound);
        if (status == CancelStatus.NotFound)
        {
            await gate.MissedAsync(pass.Code, ct);
        }
        return ReservationProblems.Answer(status);
    }

    public static async Task<Results<Ok<ReservationDto>, ProblemHttpResult, ValidationProblem>> Reschedule(
        string code, JsonBody<RescheduleRequest> body, HttpContext http, ReservationService reservations, ProofGate gate,
        AdmissionService room, ServiceDirectory services, CancellationToken ct)
    {
        var v = new Validation();
        var target = ReservationRequests.Slot(body.Value.PlaceId, body.Value.Day, body.Value.Time, v);
        if (body.Value.Dose is not (null or 1 or 2))
        {
            v.Add("dose", "1 (the booking itself) or 2 (the second dose of a two-dose booking).");
        }
        var pass = await gate.PassAsync(code, http.Request, v, ct);
        if (pass.Invalid is { } invalid)
        {
            return invalid;
        }
        if (pass.Refused is { } refused)
        {
            return refused;
        }
        // The admission is held under the reservation's code: a retried move passes again, another booking does not.
        var admitted = await room.EnterAsync(target!.Value.PlaceId, http.Request.Headers[AdmissionProblems.TokenHeader], "move:" + pass.Code, ct);
        if (!admitted.Passes)
        {
            return AdmissionProblems.Refused(admitted, http.Response);
        }
        var secondDose = body.Value.Dose == 2;
        var answer = await ProofGate.UnderEitherKeyAsync(pass.Proof, proof => secondDose
                ? reservations.MoveSecondDoseAsync(pass.Code, proof, target.Value, ct)
                : reservations.RescheduleAsync(pass.Code, proof, target.Value, ct),
            a => a.Status == RescheduleStatus.NotFound);
        if (answer.Status == RescheduleStatus.NotFound)
        {
            await gate.MissedAsync(pass.Code, ct);
        }
        await room.LeaveAsync(admitted, answer.Status);
        // The moved reservation names its service: a move stays within it.
        var service = answer.Reservation is { } moved ? await CodeOfAsync(services, moved.Slot, ct) : ServiceIds.DefaultCode;
        return ReservationProblems.Answer(answer, target.Value.Day, () =>
            TypedResults.Ok(ToDto(pass.Code, answer.Reservation!.Slot, answer.Place!, answer.Reservation.Minutes, answer.Reservation.Name, service,
                answer.Reservation.Second)));
    }

    internal static ReservationDto ToDto(string code, SlotKey slot, PlaceInfo place, int minutes, string name, string service = ServiceIds.DefaultCode,
        SecondDose? second = null) =>
        new(code, place.Id, place.Name, place.Address, Formats.Day(slot.Day), Formats.Time(slot.StartMinute), minutes, name, ReservationDto.Booked,
            service, second is null ? null : new SecondDoseDto(Formats.Day(second.Day), Formats.Time(second.StartMinute), second.Minutes));

    /// <summary>The code of the slot's service, from the cached catalogue.</summary>
    internal static async Task<string> CodeOfAsync(ServiceDirectory services, SlotKey slot, CancellationToken ct) =>
        (await services.FindAsync(slot.ServiceId, ct))?.Code ?? ServiceIds.DefaultCode;
}
