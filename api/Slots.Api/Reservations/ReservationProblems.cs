using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Reservations;

namespace Slots.Api.Reservations;

/// <summary>
/// Every reservation outcome that is not a success, mapped to its problem in one place: the
/// reserve, cancel and reschedule handlers only say what success looks like.
/// </summary>
internal static class ReservationProblems
{
    public const string ReplayedHeader = "Idempotent-Replayed";

    /// <summary>The answer to a booking: <paramref name="created"/> when a seat was taken, else its problem.</summary>
    public static Results<TOk, ProblemHttpResult, ValidationProblem> Answer<TOk>(BookingAnswer answer, DateOnly day, HttpResponse response, Func<TOk> created)
        where TOk : IResult
    {
        if (answer.Replayed)
        {
            response.Headers[ReplayedHeader] = "true";
        }
        return answer.Status switch
        {
            ReservationStatus.Reserved => created(),
            ReservationStatus.SlotFull => SlotFull("This slot has no free seat left.", answer.Alternatives),
            ReservationStatus.AlreadyBooked => Problem.Of(ProblemTypes.AlreadyBooked,
                "This person already holds a reservation; cancel or reschedule it first.",
                extensions: answer.Code is null ? null : [new("existingCode", answer.Code)]),
            ReservationStatus.UnknownSlot => Problem.UnknownSlot(),
            ReservationStatus.SlotStarted => Problem.SlotStarted(),
            ReservationStatus.UnknownPlace => Problem.UnknownPlace(),
            ReservationStatus.PlaceClosed => Problem.Of(ProblemTypes.PlaceClosed, "This place is closed to new bookings.",
                "Choose another place, or try again once it reopens."),
            ReservationStatus.OutsideWindow => OutsideWindow(day, answer.Window!.Value),
            ReservationStatus.UnknownService => UnknownService(),
            ReservationStatus.ServiceRequired => ServiceRequired(answer.Services ?? []),
            ReservationStatus.NotEligible => NotEligible(answer),
            ReservationStatus.SecondDoseFull => Problem.Of(ProblemTypes.SecondDoseFull,
                "No seat is free for the second dose in its interval; nothing was booked.", "Choose another first-dose slot or place."),
            ReservationStatus.SecondDoseOutsideInterval => Problem.Of(ProblemTypes.SecondDoseOutsideInterval,
                "The second dose chosen must be on a day within the service's interval after the first.", "Choose a day in the interval, or leave the second dose out."),
            ReservationStatus.NoSecondDose => Problem.Of(ProblemTypes.NoSecondDose,
                "This service has one appointment: there is no second dose to choose.", "Leave secondDay and secondTime out."),
            ReservationStatus.KeyReused => Problem.Of(ProblemTypes.IdempotencyKeyReused,
                "This Idempotency-Key was used for a different request.", "Use a new key for a new booking."),
            ReservationStatus.InProgress => InProgress(response),
            _ => throw new InvalidOperationException($"Unmapped reservation status {answer.Status}."),
        };
    }

    /// <summary>
    /// 403 not-eligible naming the rule that refused and why; where the person's age group opens on a
    /// dated step, the day it opens (in the place's time zone). The birth date itself is never echoed.
    /// </summary>
    internal static ProblemHttpResult NotEligible(BookingAnswer answer)
    {
        var refusal = answer.Refusal ?? new Eligibility.EligibilityDecision(Eligibility.NotEligibleReason.TooYoung, false, null);
        var rule = refusal.RefusedBy == Eligibility.EligibilityRule.Age ? "age" : "invitation";
        var reason = refusal.Reason switch
        {
            Eligibility.NotEligibleReason.NoBirthDate => "no-birth-date",
            Eligibility.NotEligibleReason.InvitationRequired => "invitation-required",
            Eligibility.NotEligibleReason.InvitationUnknown => "invitation-unknown",
            Eligibility.NotEligibleReason.InvitationUsed => "invitation-used",
            Eligibility.NotEligibleReason.InvitationRevoked => "invitation-revoked",
            _ => "too-young",
        };
        string? opensOn = null;
        if (refusal.OpensOn is { } opens)
        {
            var zone = answer.Place?.TimeZone ?? TimeZoneInfo.Utc;
            opensOn = Formats.Day(DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(opens, zone).DateTime));
        }
        var detail = reason switch
        {
            "too-young" when opensOn is not null => $"This service opens by age, older people first; your group's turn comes on {opensOn}.",
            "too-young" => "This service opens by age, older people first; your group's turn has not been announced yet.",
            "no-birth-date" => "This service opens by age, read from the birth number: the national id given is not one.",
            "invitation-unknown" => "No invitation code of this service is that one: check it as written on the invitation.",
            "invitation-used" => "This invitation code has admitted another person already.",
            "invitation-revoked" => "This invitation code was withdrawn by the campaign.",
            _ => "This service is open to holders of an invitation code only.",
        };
        List<KeyValuePair<string, object?>> extensions = [new("rule", rule), new("reason", reason)];
        if (opensOn is not null)
        {
            extensions.Add(new("opensOn", opensOn));
        }
        return Problem.Of(ProblemTypes.NotEligible, "This person may not book this service yet.", detail, extensions);
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
            RescheduleStatus.AcrossWindow => Problem.Of(ProblemTypes.RescheduleAcrossWindow,
                "This reservation cannot be moved between days inside and beyond the next weeks.",
                "Cancel it and book the new slot instead."),
            RescheduleStatus.UnknownPlace => Problem.UnknownPlace(),
            RescheduleStatus.OutsideWindow => OutsideWindow(day, answer.Window!.Value),
            RescheduleStatus.NotFound => Problem.ReservationNotFound(),
            RescheduleStatus.PairFirstDoseFixed => Problem.Of(ProblemTypes.PairFirstDoseFixed,
                "The first dose of a two-dose booking cannot be moved.", "Cancel the booking and book the pair again."),
            RescheduleStatus.OutsideInterval => Problem.Of(ProblemTypes.SecondDoseOutsideInterval,
                "The second dose must stay at the same place, within the service's interval after the first dose."),
            RescheduleStatus.NoSecondDose => Problem.Of(ProblemTypes.NoSecondDose,
                "This booking has one appointment: there is no second dose to move.", "Move the booking itself (leave dose out)."),
            RescheduleStatus.CheckedIn => Problem.Of(ProblemTypes.ReservationCheckedIn,
                "This reservation was checked in at the door; it can no longer be moved."),
            _ => throw new InvalidOperationException($"Unmapped reschedule status {answer.Status}."),
        };

    /// <summary>The answer to a cancellation.</summary>
    public static Results<NoContent, ProblemHttpResult, ValidationProblem> Answer(CancelStatus status) => status switch
    {
        CancelStatus.Cancelled => TypedResults.NoContent(),
        CancelStatus.Started => Problem.ReservationStarted(),
        CancelStatus.NotFound => Problem.ReservationNotFound(),
        CancelStatus.CheckedIn => Problem.Of(ProblemTypes.ReservationCheckedIn, "This reservation was checked in at the door; it can no longer be cancelled."),
        _ => throw new InvalidOperationException($"Unmapped cancel status {status}."),
    };

    private static ProblemHttpResult SlotFull(string title, IReadOnlyList<SlotAvailability>? alternatives) =>
        Problem.Of(ProblemTypes.SlotFull, title,
            "Pick one of the nearest free slots listed in alternatives.",
            [new("alternatives", (alternatives ?? []).Select(Alternative).ToArray())]);

    private static ProblemHttpResult InProgress(HttpResponse response)
    {
        response.Headers.RetryAfter = "1";
        return Problem.Of(ProblemTypes.RequestInProgress,
            "A request with this Idempotency-Key is still being processed.", "Retry after the time in Retry-After.");
    }

    /// <summary>The per-code guessing limit: the code is closed for <paramref name="wait"/>, whatever the proof.</summary>
    public static ProblemHttpResult WrongProofLimit(TimeSpan wait, HttpResponse response)
    {
        response.Headers.RetryAfter = ((long)Math.Ceiling(wait.TotalSeconds)).ToString(System.Globalization.CultureInfo.InvariantCulture);
        return Problem.Of(ProblemTypes.WrongProofLimit, "Too many wrong phone numbers or national ids were sent for this booking code.",
            "Try again after the time in Retry-After, with the phone number or national id the booking was made with.");
    }

    private static AlternativeDto Alternative(SlotAvailability slot) =>
        new(slot.Slot.PlaceId, Formats.Day(slot.Slot.Day), Formats.Time(slot.Slot.StartMinute), slot.Free);

    /// <summary>To its owner: the reservation existed and was cancelled.</summary>
    public static ProblemHttpResult Cancelled() =>
        Problem.Of(ProblemTypes.ReservationCancelled, "This reservation was cancelled.", "Book a new slot if you still need one.",
            [new("state", "cancelled")]);

    public static ProblemHttpResult UnknownService() => Problem.Of(ProblemTypes.UnknownService, "This place does not offer that service.");

    /// <summary>The place offers several services: which one is meant cannot be guessed; the message lists their codes.</summary>
    public static ValidationProblem ServiceRequired(IReadOnlyList<string> codes) =>
        Problem.Invalid("service", $"This place offers several services; name one of: {string.Join(", ", codes)}.");

    /// <summary>A past day, or a day beyond what can be booked.</summary>
    private static ValidationProblem OutsideWindow(DateOnly day, (DateOnly First, DateOnly Last) window) =>
        Problem.Invalid("day", day < window.First
            ? $"Days before {Formats.Day(window.First)} have passed and cannot be booked."
            : $"Bookable days are {Formats.Day(window.First)} to {Formats.Day(window.Last)}.");
}
