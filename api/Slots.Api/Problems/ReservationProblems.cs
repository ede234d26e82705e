using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Contracts;
using Slots.Reservations;

namespace Slots.Api.Problems;

/// <summary>
/// Every reservation outcome that is not a success, mapped to its problem in one place: the
/// reserve, cancel and reschedule handlers only say what success looks like.
/// </summary>
internal static class ReservationProblems
{
    /// <summary>The answer to a booking: <paramref name="created"/> when a seat was taken, else its problem.</summary>
    public static Results<TOk, ProblemHttpResult, ValidationProblem> Answer<TOk>(BookingAnswer answer, DateOnly day, HttpResponse response, Func<TOk> created)
        where TOk : IResult
    {
        if (answer.Replayed)
        {
            response.Headers["Idempotent-Replayed"] = "true";
        }
        return answer.Status switch
        {
            ReservationStatus.Reserved => created(),
            ReservationStatus.SlotFull => SlotFull("This slot has no free seat left.", answer.Alternatives),
            ReservationStatus.AlreadyBooked => Problem.Of(StatusCodes.Status409Conflict, "already-booked",
                "This person already holds a reservation; cancel or reschedule it first.",
                extensions: answer.Code is null ? null : [new("existingCode", answer.Code)]),
            ReservationStatus.UnknownSlot => Problem.UnknownSlot(),
            ReservationStatus.SlotStarted => Problem.SlotStarted(),
            ReservationStatus.UnknownPlace => Problem.UnknownPlace(),
            ReservationStatus.OutsideWindow => OutsideWindow(day, answer.Window!.Value),
            ReservationStatus.KeyReused => Problem.Of(StatusCodes.Status422UnprocessableEntity, "idempotency-key-reused",
                "This Idempotency-Key was used for a different request.", "Use a new key for a new booking."),
            ReservationStatus.InProgress => InProgress(response),
            _ => throw new InvalidOperationException($"Unmapped reservation status {answer.Status}."),
        };
    }

    /// <summary>The answer to a move: <paramref name="moved"/> when the reservation moved, else its problem.</summary>
    public static Results<TOk, ProblemHttpResult, ValidationProblem> Answer<TOk>(RescheduleAnswer answer, DateOnly day, Func<TOk> moved)
        where TOk : IResult =>
        answer.Status switch
        {
            RescheduleStatus.Rescheduled => moved(),
            RescheduleStatus.SlotFull => SlotFull("This slot has no free seat left; your reservation is unchanged.", answer.Alternatives),
            RescheduleStatus.UnknownSlot => Problem.UnknownSlot(),
            RescheduleStatus.SlotStarted => Problem.SlotStarted(),
            RescheduleStatus.Started => Problem.ReservationStarted(),
            RescheduleStatus.AcrossWindow => Problem.Of(StatusCodes.Status409Conflict, "reschedule-across-window",
                "This reservation cannot be moved between days inside and beyond the next weeks.",
                "Cancel it and book the new slot instead."),
            RescheduleStatus.UnknownPlace => Problem.UnknownPlace(),
            RescheduleStatus.OutsideWindow => OutsideWindow(day, answer.Window!.Value),
            RescheduleStatus.NotFound => Problem.ReservationNotFound(),
            _ => throw new InvalidOperationException($"Unmapped reschedule status {answer.Status}."),
        };

    /// <summary>The answer to a cancellation.</summary>
    public static Results<NoContent, ProblemHttpResult, ValidationProblem> Answer(CancelStatus status) => status switch
    {
        CancelStatus.Cancelled => TypedResults.NoContent(),
        CancelStatus.Started => Problem.ReservationStarted(),
        CancelStatus.NotFound => Problem.ReservationNotFound(),
        _ => throw new InvalidOperationException($"Unmapped cancel status {status}."),
    };

    private static ProblemHttpResult SlotFull(string title, IReadOnlyList<SlotAvailability>? alternatives) =>
        Problem.Of(StatusCodes.Status409Conflict, "slot-full", title,
            "Pick one of the nearest free slots listed in alternatives.",
            [new("alternatives", (alternatives ?? []).Select(Formats.Alternative).ToArray())]);

    private static ProblemHttpResult InProgress(HttpResponse response)
    {
        response.Headers.RetryAfter = "1";
        return Problem.Of(StatusCodes.Status409Conflict, "request-in-progress",
            "A request with this Idempotency-Key is still being processed.", "Retry after the time in Retry-After.");
    }

    /// <summary>A past day, or a day beyond what can be booked.</summary>
    private static ValidationProblem OutsideWindow(DateOnly day, (DateOnly First, DateOnly Last) window) =>
        Problem.Invalid("day", day < window.First
            ? $"Days before {Formats.Day(window.First)} have passed and cannot be booked."
            : $"Bookable days are {Formats.Day(window.First)} to {Formats.Day(window.Last)}.");
}
