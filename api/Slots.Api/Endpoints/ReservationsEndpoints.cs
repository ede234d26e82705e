using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Slots.Api.Contracts;
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
        group.MapPost("/", Reserve).WithName("Reserve").Accepts<ReserveRequest>("application/json");
        group.MapGet("/{code}", Find).WithName("FindReservation").RequireRateLimiting(RateLimits.Reads);
        group.MapDelete("/{code}", Cancel).WithName("CancelReservation");
        group.MapPost("/{code}/reschedule", Reschedule).WithName("RescheduleReservation").Accepts<RescheduleRequest>("application/json");
        return app;
    }

    public static async Task<Results<Created<ReservationDto>, ProblemHttpResult, ValidationProblem>> Reserve(
        HttpContext http, ReservationService reservations, ReservationRequests requests, PlaceDirectory places, CancellationToken ct)
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
        if (answer.Replayed)
        {
            http.Response.Headers["Idempotent-Replayed"] = "true";
        }
        switch (answer.Status)
        {
            case ReservationStatus.Reserved:
                // The booking's answer is the lookup's: one read by code for the slot's length, paid only by
                // the bookings that succeed (a stampede's answers are mostly 409 and 429). The stores' reserve
                // statements do not return the length, and a replay would not have it either.
                var place = (await places.FindAsync(booking.Slot.PlaceId, ct))!;
                var held = await reservations.FindAsync(answer.Code!, new ContactProof(booking.Phone, null), ct);
                if (held is null)
                {
                    return Problem.ReservationNotFound(); // a replay of a booking cancelled since
                }
                return TypedResults.Created($"/api/reservations/{answer.Code}", ToDto(held.Code, held.Slot, place, held.Minutes, held.Name));
            case ReservationStatus.SlotFull:
                return Problem.Of(StatusCodes.Status409Conflict, "slot-full", "This slot has no free seat left.",
                    "Pick one of the nearest free slots listed in alternatives.",
                    [new("alternatives", (answer.Alternatives ?? []).Select(Formats.Alternative).ToArray())]);
            case ReservationStatus.AlreadyBooked:
                return Problem.Of(StatusCodes.Status409Conflict, "already-booked",
                    "This person already holds a reservation; cancel or reschedule it first.",
                    extensions: answer.Code is null ? null : [new("existingCode", answer.Code)]);
            case ReservationStatus.UnknownSlot:
                return Problem.UnknownSlot();
            case ReservationStatus.SlotStarted:
                return Problem.SlotStarted();
            case ReservationStatus.UnknownPlace:
                return Problem.UnknownPlace();
            case ReservationStatus.OutsideWindow:
                return OutsideWindow(booking.Slot.Day, answer.Window!.Value);
            case ReservationStatus.KeyReused:
                return Problem.Of(StatusCodes.Status422UnprocessableEntity, "idempotency-key-reused",
                    "This Idempotency-Key was used for a different request.", "Use a new key for a new booking.");
            case ReservationStatus.InProgress:
                http.Response.Headers.RetryAfter = "1";
                return Problem.Of(StatusCodes.Status409Conflict, "request-in-progress",
                    "A request with this Idempotency-Key is still being processed.", "Retry after the time in Retry-After.");
            default:
                throw new InvalidOperationException($"Unmapped reservation status {answer.Status}.");
        }
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
        return status switch
        {
            CancelStatus.Cancelled => TypedResults.NoContent(),
            CancelStatus.Started => Problem.ReservationStarted(),
            _ => Problem.ReservationNotFound(),
        };
    }

    public static async Task<Results<Ok<ReservationDto>, ProblemHttpResult, ValidationProblem>> Reschedule(
        string code, HttpContext http, ReservationService reservations, ReservationRequests requests, PlaceDirectory places, TimeProvider clock, CancellationToken ct)
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
        var (status, window, unknownPlace) = await reservations.RescheduleAsync(normalized, proof!.Value, target!.Value, ct);
        if (unknownPlace)
        {
            return Problem.UnknownPlace();
        }
        if (window is { } bookable)
        {
            return OutsideWindow(target.Value.Day, bookable);
        }
        switch (status)
        {
            case RescheduleStatus.Rescheduled:
                var found = await reservations.FindAsync(normalized, proof.Value, ct);
                var place = (await places.FindAsync(target.Value.PlaceId, ct))!;
                return found is null
                    ? Problem.ReservationNotFound() // cancelled between the move and this read
                    : TypedResults.Ok(ToDto(found.Code, found.Slot, place, found.Minutes, found.Name));
            case RescheduleStatus.SlotFull:
                var placeInfo = (await places.FindAsync(target.Value.PlaceId, ct))!;
                var alternatives = await reservations.NearestFreeAsync(placeInfo, target.Value, clock.GetUtcNow(), ct);
                return Problem.Of(StatusCodes.Status409Conflict, "slot-full", "This slot has no free seat left; your reservation is unchanged.",
                    "Pick one of the nearest free slots listed in alternatives.",
                    [new("alternatives", alternatives.Select(Formats.Alternative).ToArray())]);
            case RescheduleStatus.UnknownSlot:
                return Problem.UnknownSlot();
            case RescheduleStatus.SlotStarted:
                return Problem.SlotStarted();
            case RescheduleStatus.Started:
                return Problem.ReservationStarted();
            case RescheduleStatus.AcrossWindow:
                return Problem.Of(StatusCodes.Status409Conflict, "reschedule-across-window",
                    "This reservation cannot be moved between days inside and beyond the next weeks.",
                    "Cancel it and book the new slot instead.");
            default:
                return Problem.ReservationNotFound();
        }
    }

    /// <summary>A past day; or, where the cold path is not available (SQL Server in this build), a day beyond the window.</summary>
    private static ValidationProblem OutsideWindow(DateOnly day, (DateOnly First, DateOnly Last) window) =>
        Problem.Invalid("day", day < window.First
            ? $"Days before {Formats.Day(window.First)} have passed and cannot be booked."
            : $"Bookable days are {Formats.Day(window.First)} to {Formats.Day(window.Last)}.");

    private static ReservationDto ToDto(string code, SlotKey slot, PlaceInfo place, int minutes, string name) =>
        new(code, place.Id, place.Name, place.Address, Formats.Day(slot.Day), Formats.Time(slot.StartMinute), minutes, name);
}
