using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Admission;
using Slots.Persons;

namespace Slots.Api.Admission;

/// <summary>The waiting room as people meet it: the openings, joining one, and asking where they stand.</summary>
internal static class AdmissionEndpoints
{
    public static IEndpointRouteBuilder MapAdmission(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/waiting-room").WithTags("Waiting room").Problems(ProblemTypes.Shedding);
        group.MapGet("/openings", Openings).WithName("ListOpenings").RequireRateLimiting(RateLimits.Reads)
            .WithSummary("List openings")
            .WithDescription("Openings that are open or closed recently: the places they cover, when they open and the seats left. "
                + "Booking a place inside an open one needs a turn in its waiting room.");
        group.MapPost("/openings/{id}/join", Join).WithName("JoinWaitingRoom").WithJsonBody<JoinRequest>()
            .PathId("The opening's id.", wide: true)
            .RequireRateLimiting(RateLimits.Writes)
            .WithSummary("Join an opening's waiting room")
            .WithDescription("Gives the person a place in line and a signed token that says so (no personal data in it). "
                + "Before the opening every joiner is in the pre-queue, shuffled at random when it opens; after it, first come, first served. "
                + "Joining again (same national id) answers the same place in line: 201 for a new one, 200 for one held already.")
            .Location()
            .ResponseHeader(StatusCodes.Status201Created, "Retry-After", "Seconds until the status is worth asking again.")
            .ResponseHeader(StatusCodes.Status200OK, "Retry-After", "Seconds until the status is worth asking again.")
            .Problems(ProblemTypes.OpeningNotFound, ProblemTypes.OpeningClosed);
        group.MapGet("/status", Status).WithName("GetWaitingRoomStatus").RequireRateLimiting(RateLimits.Reads)
            .WithSummary("Where a token stands")
            .WithDescription("Waiting (position, people ahead, estimated wait), admitted (until when), no-seats-left, closed or expired, "
                + "with the seats left in the opening. Answered from the instance's view of the counters, refreshed at most every second; "
                + "ask again after Retry-After.")
            .Header(AdmissionProblems.TokenHeader, true, "The token a join answered.")
            .ResponseHeader(StatusCodes.Status200OK, "Retry-After", "Seconds until the status is worth asking again.")
            .Problems(ProblemTypes.AdmissionTokenInvalid);
        return app;
    }

    public static async Task<Ok<PublicOpeningDto[]>> Openings(AdmissionService room, CancellationToken ct) =>
        TypedResults.Ok((await room.OpeningsAsync(ct)).Select(o => new PublicOpeningDto(o.Opening.Id, o.Opening.Scope.Region,
            o.Places.Order().ToArray(), o.Opening.OpensAt, o.IsOpen ? "open" : "closed", o.Opening.SeatsLeft)).ToArray());

    public static async Task<Results<Created<JoinDto>, Ok<JoinDto>, ProblemHttpResult, ValidationProblem>> Join(
        string id, JsonBody<JoinRequest> body, HttpContext http, AdmissionService room, PersonIdentity persons, CancellationToken ct)
    {
        if (!Formats.TryId(id, out long openingId))
        {
            return AdmissionProblems.InvalidId();
        }
        if (PersonIdentity.NormalizeNationalId(body.Value.NationalId) is not { } nationalId)
        {
            return Problem.Invalid("nationalId", string.IsNullOrWhiteSpace(body.Value.NationalId)
                ? "The national id is required."
                : "Not a national id: 6 to 20 letters and digits (spaces, / and - are ignored).");
        }
        var answer = await room.JoinAsync(openingId, persons.Hash(nationalId), ct);
        switch (answer.Outcome)
        {
            case JoinOutcome.UnknownOpening:
                return AdmissionProblems.OpeningNotFound();
            case JoinOutcome.Closed:
                return AdmissionProblems.OpeningClosed();
        }
        var dto = new JoinDto(answer.Token!, AdmissionProblems.Dto(answer.Status!));
        AskAgain(http.Response, answer.Status!);
        return answer.Outcome == JoinOutcome.Joined ? TypedResults.Created("/api/waiting-room/status", dto) : TypedResults.Ok(dto);
    }

    public static async Task<Results<Ok<RoomStatusDto>, ProblemHttpResult>> Status(HttpContext http, AdmissionService room, CancellationToken ct)
    {
        var answer = await room.StatusAsync(http.Request.Headers[AdmissionProblems.TokenHeader].ToString(), ct);
        if (answer.Status is not { } status)
        {
            return AdmissionProblems.TokenInvalid(answer.Check);
        }
        AskAgain(http.Response, status);
        return TypedResults.Ok(AdmissionProblems.Dto(status));
    }

    /// <summary>
    /// When to ask again, as Retry-After, and as a private cache lifetime: a browser or an
    /// intermediary repeating the poll sooner gets the same answer without coming here.
    /// </summary>
    private static void AskAgain(HttpResponse response, RoomStatus status)
    {
        var seconds = AdmissionProblems.AskAgain(status);
        response.Headers.RetryAfter = seconds;
        response.Headers.CacheControl = "private, max-age=" + seconds;
        response.Headers.Vary = AdmissionProblems.TokenHeader;
    }
}
