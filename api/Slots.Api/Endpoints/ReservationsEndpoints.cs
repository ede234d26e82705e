using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Slots.Api.Contracts;
using Slots.Api.Metrics;
using Slots.Api.Problems;
using Slots.Places;
using Slots.Reservations;

namespace Slots.Api.Endpoints;

/// <summary>Booking, looking up, cancelling and rescheduling a reservation.</summary>
internal static class ReservationsEndpoints
{
    public static IEndpointRouteBuilder MapReservations(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/reservations")
            .WithTags("Reservations")
            .RequireRateLimiting(RateLimits.Writes);
        group.MapPost("/", Reserve).WithName("Reserve").Accepts<ReserveRequest>("application/json")
            .WithReservationMetrics("reserve", "reserved");
        group.MapGet("/{code}", Find).WithName("FindReservation").RequireRateLimiting(RateLimits.Reads)
            .WithReservationMetrics("find", "found");
        group.MapDelete("/{code}", Cancel).WithName("CancelReservation")
            .WithReservationMetrics("cancel", "cancelled");
        group.MapPost("/{code}/reschedule", Reschedule).WithName("RescheduleReservation").Accepts<RescheduleRequest>("application/json")
            .WithReservationMetrics("reschedule", "rescheduled");
        return app;
    }

    public static async Task<Results<Created<ReservationDto>, ProblemHttpResult, ValidationProblem>> Reserve(
        HttpContext http, ReservationService reservations, ReservationRequests requests, CancellationToken ct)
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

        var answer = await reservations.ReserveAsync(booking, key, ct);
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
        string code, HttpContext http, ReservationService reservations, ReservationRequests requests, CancellationToken ct)
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
        var answer = await reservations.RescheduleAsync(normalized, proof!.Value, target!.Value, ct);
        return ReservationProblems.Answer(answer, target.Value.Day, () =>
            TypedResults.Ok(ToDto(normalized, target.Value, answer.Place!, answer.Reservation!.Minutes, answer.Reservation.Name)));
    }

    private static ReservationDto ToDto(string code, SlotKey slot, PlaceInfo place, int minutes, string name) =>
        new(code, place.Id, place.Name, place.Address, Formats.Day(slot.Day), Formats.Time(slot.StartMinute), minutes, name);
}
