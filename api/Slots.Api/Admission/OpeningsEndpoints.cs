using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.Extensions.Options;
using Slots.Admission;
using Slots.Api.Admin;
using Slots.Api.Staff;
using Slots.Staff;

namespace Slots.Api.Admission;

/// <summary>Announcing, watching and closing waiting-room openings, for staff.</summary>
internal static class OpeningsEndpoints
{
    public static IEndpointRouteBuilder MapOpenings(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/admin/openings").WithTags("Admin")
            .Problems([.. ProblemTypes.Shedding, ProblemTypes.Unauthenticated, ProblemTypes.Forbidden]);
        group.MapPost("/", Create).WithName("CreateOpening").WithJsonBody<CreateOpeningRequest>().Location()
            .RequireAuthorization(AdminAuth.AdminPolicy)
            .WithSummary("Announce an opening")
            .WithDescription("A waiting room for a region or a set of places from now on: people who join before opensAt are shuffled "
                + "at opensAt, later ones served in order. admitPerSecond (optional) caps the pace; admissions never exceed the free seats "
                + "in the scope plus abandonAllowance; an admitted person has admissionSeconds to book. Admins only: the admin role in a token or an admin key.")
            .Problems(ProblemTypes.OpeningOverlaps);
        group.MapGet("/", List).WithName("ListOpeningsForStaff").RequireAuthorization(AdminAuth.ViewerPolicy)
            .WithSummary("Openings and their counters")
            .WithDescription("Open openings and those closed recently, with joins, the pre-queue, the serving counter and seats left. Viewers and admins: the role in a token or a key.");
        group.MapGet("/{id}", Get).WithName("GetOpening").RequireAuthorization(AdminAuth.ViewerPolicy)
            .WithSummary("An opening and its counters")
            .WithDescription("As stored now. Viewers and admins: the role in a token or a key.")
            .PathId("The opening's id.", wide: true)
            .Problems(ProblemTypes.OpeningNotFound, ProblemTypes.ValidationFailed);
        group.MapPost("/{id}/close", Close).WithName("CloseOpening").RequireAuthorization(AdminAuth.AdminPolicy)
            .WithSummary("Close an opening")
            .WithDescription("Ends the waiting room: booking in its scope works as without one, status answers closed. Admins only: the admin role in a token or an admin key.")
            .PathId("The opening's id.", wide: true)
            .Problems(ProblemTypes.OpeningNotFound, ProblemTypes.OpeningClosed, ProblemTypes.ValidationFailed);
        return app;
    }

    public static async Task<Results<Created<OpeningDto>, ProblemHttpResult, ValidationProblem>> Create(
        JsonBody<CreateOpeningRequest> request, AdmissionService room, IOptions<AdmissionOptions> options, StaffService staff, HttpContext http,
        CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        var region = body.Region?.Trim();
        if (string.IsNullOrEmpty(region) == (body.PlaceIds is not { Length: > 0 }))
        {
            v.Add("region", "Name either a region or placeIds, not both.");
        }
        else if (body.Region is { Length: > 100 } || region?.Any(char.IsControl) == true)
        {
            v.Add("region", "At most 100 characters, without control characters.");
        }
        if (body.PlaceIds is { Length: > 1000 } || body.PlaceIds?.Any(id => id < 1) == true)
        {
            v.Add("placeIds", "At most 1000 positive place ids.");
        }
        if (body.OpensAt is null)
        {
            v.Add("opensAt", "When the opening opens is required (ISO 8601 with an offset).");
        }
        if (body.AdmitPerSecond is { } rate && (double.IsNaN(rate) || rate is < 0.01 or > 100_000))
        {
            v.Add("admitPerSecond", "0.01 to 100000 people per second, or leave it out to admit as fast as the seats allow.");
        }
        if (body.AdmissionSeconds is < 1 or > 3600)
        {
            v.Add("admissionSeconds", "1 to 3600 seconds.");
        }
        if (body.AbandonAllowance is < 0 or > 1_000_000)
        {
            v.Add("abandonAllowance", "0 to 1000000 admissions.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var scope = region is not null ? OpeningScope.OfRegion(region) : OpeningScope.OfPlaces(body.PlaceIds!);
        var admission = body.AdmissionSeconds is { } seconds ? TimeSpan.FromSeconds(seconds) : options.Value.DefaultAdmissionTime;
        var answer = await room.CreateAsync(new NewOpening(scope, body.OpensAt!.Value, body.AdmitPerSecond, admission, body.AbandonAllowance ?? 0), ct);
        if (answer.Outcome == CreateOutcome.Created)
        {
            await staff.RecordAsync(StaffMember.Of(http.User).Subject, null, AuditActions.OpeningAnnounced, $"opening {answer.Opening!.Id}", null, ct);
        }
        return answer.Outcome switch
        {
            CreateOutcome.Created => TypedResults.Created($"/api/admin/openings/{answer.Opening!.Id}", Dto(answer.Opening)),
            CreateOutcome.Overlaps => AdmissionProblems.OpeningOverlaps(answer.OverlapsWith!.Value),
            CreateOutcome.EmptyScope => Problem.Invalid(region is not null ? "region" : "placeIds", "No place is in this scope."),
            _ => throw new InvalidOperationException($"Unmapped create outcome {answer.Outcome}."),
        };
    }

    public static async Task<Ok<OpeningDto[]>> List(AdmissionService room, CancellationToken ct) =>
        TypedResults.Ok((await room.OpeningsAsync(ct)).Select(o => Dto(o.Opening)).ToArray());

    public static async Task<Results<Ok<OpeningDto>, ProblemHttpResult, ValidationProblem>> Get(string id, AdmissionService room, CancellationToken ct)
    {
        if (!Formats.TryId(id, out long openingId))
        {
            return AdmissionProblems.InvalidId();
        }
        return await room.FindAsync(openingId, ct) is { } opening ? TypedResults.Ok(Dto(opening)) : AdmissionProblems.OpeningNotFound();
    }

    public static async Task<Results<Ok<OpeningDto>, ProblemHttpResult, ValidationProblem>> Close(
        string id, AdmissionService room, StaffService staff, HttpContext http, CancellationToken ct)
    {
        if (!Formats.TryId(id, out long openingId))
        {
            return AdmissionProblems.InvalidId();
        }
        if (await room.CloseAsync(openingId, ct))
        {
            await staff.RecordAsync(StaffMember.Of(http.User).Subject, null, AuditActions.OpeningClosed, $"opening {openingId}", null, ct);
            return TypedResults.Ok(Dto((await room.FindAsync(openingId, ct))!));
        }
        return await room.FindAsync(openingId, ct) is null ? AdmissionProblems.OpeningNotFound() : AdmissionProblems.OpeningClosed();
    }

    private static OpeningDto Dto(Opening o) => new(
        o.Id, o.Scope.Region, o.Scope.PlaceIds, o.OpensAt, o.AdmitPerSecond, (int)o.AdmissionTime.TotalSeconds, o.AbandonAllowance,
        o.State == OpeningState.Open ? "open" : "closed", o.CreatedAt, o.ClosedAt, o.Joined, o.PreQueue, o.Served, o.SeatsLeft, o.AdvancedAt);
}
