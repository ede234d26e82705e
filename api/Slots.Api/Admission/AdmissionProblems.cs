using System.Globalization;
using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Admission;

namespace Slots.Api.Admission;

/// <summary>The waiting room's refusals, mapped to problems in one place.</summary>
internal static class AdmissionProblems
{
    public const string TokenHeader = "Waiting-Room-Token";

    /// <summary>Why the gate in front of a booking said no.</summary>
    public static ProblemHttpResult Refused(GatePass pass, HttpResponse response)
    {
        var opening = new KeyValuePair<string, object?>("openingId", pass.OpeningId);
        switch (pass.Verdict)
        {
            case GateVerdict.TokenRequired:
                return Problem.Of(ProblemTypes.AdmissionRequired,
                    "This place is in a waiting-room opening: booking it needs your turn.",
                    $"Join the queue with POST /api/waiting-room/openings/{pass.OpeningId}/join, poll GET /api/waiting-room/status, "
                    + $"and once admitted send the token in the {TokenHeader} header with the booking.",
                    [opening]);
            case GateVerdict.NotYetAdmitted:
                response.Headers.RetryAfter = AskAgain(pass.Status!);
                return Problem.Of(ProblemTypes.NotYetAdmitted,
                    pass.Status!.State == RoomState.NoSeatsLeft ? "No seats are left in this opening for now." : "Your turn has not come yet.",
                    "Keep polling GET /api/waiting-room/status at the pace in Retry-After; book once the status says admitted.",
                    [opening, new("room", Dto(pass.Status))]);
            case GateVerdict.AdmissionExpired:
                return Problem.Of(ProblemTypes.AdmissionExpired,
                    "Your time to book has passed.", "The admission lapsed unused and went to the next in line.", [opening]);
            case GateVerdict.AdmissionUsed:
                return Problem.Of(ProblemTypes.AdmissionUsed,
                    "This admission has already been used for a booking.", "One admission books once.", [opening]);
            default:
                throw new InvalidOperationException($"The gate passed ({pass.Verdict}); there is no problem to answer.");
        }
    }

    public static ProblemHttpResult TokenInvalid(TokenCheck check) =>
        Problem.Of(ProblemTypes.AdmissionTokenInvalid,
            check == TokenCheck.Expired ? "This waiting-room token has expired." : "This is not a valid waiting-room token.",
            $"Send the token the join answered in the {TokenHeader} header; join again for a new one.");

    public static ValidationProblem InvalidId() => Problem.Invalid("id", "An opening id is a whole number from 1.");

    public static ProblemHttpResult OpeningNotFound() =>
        Problem.Of(ProblemTypes.OpeningNotFound, "There is no such opening.");

    public static ProblemHttpResult OpeningClosed() =>
        Problem.Of(ProblemTypes.OpeningClosed, "This opening is closed.",
            "Book directly: places in its scope need no waiting room now.");

    public static ProblemHttpResult OpeningOverlaps(long other) =>
        Problem.Of(ProblemTypes.OpeningOverlaps, "An open opening already covers one of these places.",
            "Close it first, or leave its places out.", [new("openingId", other)]);

    /// <summary>Seconds until a client should ask again, for Retry-After and Cache-Control.</summary>
    public static string AskAgain(RoomStatus status) =>
        Math.Max(1, (int)Math.Ceiling(status.AskAgainIn.TotalSeconds)).ToString(CultureInfo.InvariantCulture);

    public static RoomStatusDto Dto(RoomStatus s) => new(
        State(s.State), s.OpeningId, s.OpensAt, s.SeatsLeft, Math.Max(1, (int)Math.Ceiling(s.AskAgainIn.TotalSeconds)),
        s.Position, s.Ahead, s.EstimatedWait is { } wait ? (int)Math.Ceiling(wait.TotalSeconds) : null, s.AdmittedUntil);

    public static string State(RoomState state) => state switch
    {
        RoomState.Waiting => "waiting",
        RoomState.Admitted => "admitted",
        RoomState.NoSeatsLeft => "no-seats-left",
        RoomState.Closed => "closed",
        RoomState.Expired => "expired",
        _ => throw new InvalidOperationException($"Unmapped room state {state}."),
    };
}
