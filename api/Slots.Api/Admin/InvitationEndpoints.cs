using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Staff;
using Slots.Catalogue;
using Slots.Eligibility;
using Slots.Staff;

namespace Slots.Api.Admin;

/// <summary>A new batch of invitation codes for a service.</summary>
public sealed record CreateInvitationBatchRequest(
    [property: Required, StringLength(100, MinimumLength = 1), RegularExpression(Patterns.Text),
        Description("What the batch is for, as admins will recognise it, e.g. \"Teachers, Bratislava region\". Not shown to the people invited.")]
    string? Label,
    [property: Required, Range(1, 1_000_000),
        Description("How many single-use codes: 1 up to Slots:Invitations:MaxBatchSize (100,000 unless configured).")]
    int? Size);

/// <summary>A batch as admins see it: how many codes it holds and how many were spent; never the codes.</summary>
public sealed record InvitationBatchDto(
    int Id,
    [property: RegularExpression(Places.ServiceDto.CodePattern), Description("The service its codes admit to.")] string Service,
    string Label,
    int Size,
    [property: Description("Codes bound to the person whose booking they admitted.")] int Spent,
    [property: Description("When it was made (UTC).")] string CreatedAt,
    [property: Description("Who made it.")] string CreatedBy,
    [property: Description("When it was revoked (UTC); absent while in force.")] string? RevokedAt,
    [property: Description("Who revoked it.")] string? RevokedBy);

/// <summary>Invitation codes for priority groups (issue 41): batches issued once as CSV, listed, revoked.</summary>
internal static class InvitationEndpoints
{
    public static RouteGroupBuilder MapInvitations(this RouteGroupBuilder admin)
    {
        admin.MapPost("/services/{code}/invitations", Issue).WithName("IssueInvitations").WithJsonBody<CreateInvitationBatchRequest>()
            .Location()
            .WithSummary("Issue a batch of invitation codes")
            .WithDescription("Draws size single-use codes (XXXX-XXXX-XXXX, 60 random bits each) for the service and answers them as CSV "
                + "(RFC 4180, UTF-8 with a byte-order mark): this answer is the only time they exist in plain; only their keyed hashes are "
                + "stored, so keep the file safe and hand the codes out. A code admits to the service where its rule is invitation, or age "
                + "with acceptsInvitations (PUT /api/admin/services/{code}/eligibility); the booking it admits spends it and binds it to its "
                + "person. Needs Slots:Invitations:HmacSecret. Admins only; recorded in the audit trail.")
            .Produces<string>(StatusCodes.Status201Created, "text/csv")
            .Problems(ProblemTypes.UnknownService, ProblemTypes.InvitationsOff);
        admin.MapPost("/invitations/{id}/revoke", Revoke).WithName("RevokeInvitations")
            .PathId("The batch's id.")
            .WithSummary("Revoke a batch of invitation codes")
            .WithDescription("No code of the batch admits anybody from now on (the booking that races it is decided in the same database "
                + "operation as its seat, one way or the other); bookings already made stand. Revoking again changes nothing. "
                + "Admins only; recorded in the audit trail.")
            .Problems(ProblemTypes.InvitationBatchNotFound);
        return admin;
    }

    public static RouteHandlerBuilder MapInvitationList(this IEndpointRouteBuilder app, ProblemType[] viewer) =>
        app.MapGet("/api/admin/invitations", List).WithTags("Admin").WithName("ListInvitationBatches")
            .RequireAuthorization(AdminAuth.ViewerPolicy)
            .WithSummary("Invitation batches")
            .WithDescription("Every batch of invitation codes, newest first, with how many codes it holds and how many were spent; never the "
                + "codes. Viewers and admins.")
            .QueryText("service", 32, "Only the batches of this service, by its code.")
            .Problems([.. viewer, ProblemTypes.ValidationFailed, ProblemTypes.UnknownService]);

    public static async Task<Results<FileContentHttpResult, ProblemHttpResult, ValidationProblem>> Issue(
        string code, JsonBody<CreateInvitationBatchRequest> request, HttpContext http, ServiceDirectory services, InvitationBatches batches,
        InvitationKey key, StaffService staff, CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        var label = body.Label?.Trim();
        if (string.IsNullOrEmpty(label) || body.Label!.Length > 100 || label.Any(char.IsControl))
        {
            v.Add("label", "What the batch is for: 1 to 100 characters, without control characters.");
        }
        if (body.Size is not { } size || size < 1 || size > batches.MaxSize)
        {
            v.Add("size", $"How many codes: 1 to {batches.MaxSize.ToString(CultureInfo.InvariantCulture)}.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        if ((await services.AllAsync(ct)).FirstOrDefault(s => s.Code == code) is not { } service)
        {
            return Reservations.ReservationProblems.UnknownService();
        }
        if (!key.Configured)
        {
            return Problem.Of(ProblemTypes.InvitationsOff, $"No invitation key is configured: set {InvitationOptions.Section}:HmacSecret.");
        }
        var by = StaffMember.Of(http.User).Subject;
        var issued = await batches.IssueAsync(service.Id, label!, body.Size!.Value, by, ct);
        await staff.RecordAsync(by, null, AuditActions.InvitationsIssued,
            $"{service.Code} batch {issued.Batch.Id.ToString(CultureInfo.InvariantCulture)} size {issued.Batch.Size.ToString(CultureInfo.InvariantCulture)}",
            null, ct);
        http.Response.Headers.Location = $"/api/admin/invitations?service={service.Code}";
        http.Response.StatusCode = StatusCodes.Status201Created;
        return TypedResults.File(Csv(issued, service.Code), "text/csv; charset=utf-8",
            $"invitations-{service.Code}-{issued.Batch.Id.ToString(CultureInfo.InvariantCulture)}.csv");
    }

    public static async Task<Results<Ok<IReadOnlyList<InvitationBatchDto>>, ProblemHttpResult, ValidationProblem>> List(
        string? service, ServiceDirectory services, InvitationBatches batches, CancellationToken ct)
    {
        var v = new Validation();
        Reservations.ReservationRequests.ServiceCode(service, "service", v);
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var catalogue = await services.AllAsync(ct);
        if (!Reservations.ReservationRequests.TryServiceFilter(service, catalogue, out var serviceId))
        {
            return Reservations.ReservationProblems.UnknownService();
        }
        var rows = await batches.ListAsync(serviceId, ct);
        return TypedResults.Ok<IReadOnlyList<InvitationBatchDto>>([.. rows.Select(b => ToDto(b, catalogue))]);
    }

    public static async Task<Results<Ok<InvitationBatchDto>, ProblemHttpResult, ValidationProblem>> Revoke(
        string id, HttpContext http, ServiceDirectory services, InvitationBatches batches, StaffService staff, CancellationToken ct)
    {
        if (!Formats.TryId(id, out int batchId))
        {
            return Problem.Invalid("id", "A batch's id: a positive whole number.");
        }
        var by = StaffMember.Of(http.User).Subject;
        if (await batches.RevokeAsync(batchId, by, ct) is not { } batch)
        {
            return Problem.Of(ProblemTypes.InvitationBatchNotFound, "No batch of invitation codes has that id.");
        }
        await staff.RecordAsync(by, null, AuditActions.InvitationsRevoked, $"batch {batch.Id.ToString(CultureInfo.InvariantCulture)}", null, ct);
        return TypedResults.Ok(ToDto(batch, await services.AllAsync(ct)));
    }

    private static InvitationBatchDto ToDto(InvitationBatch b, IReadOnlyList<ServiceInfo> catalogue) => new(
        b.Id, catalogue.FirstOrDefault(s => s.Id == b.ServiceId)?.Code ?? "", b.Label, b.Size, b.Spent, Instant(b.CreatedAt), b.CreatedBy,
        b.RevokedAt is { } at ? Instant(at) : null, b.RevokedBy);

    private static string Instant(long unixSeconds) => Formats.Instant(DateTimeOffset.FromUnixTimeSeconds(unixSeconds));

    /// <summary>One row per code: the code as people type it, the service, the batch and its label (<see cref="CsvFile"/>).</summary>
    private static byte[] Csv(IssuedBatch issued, string service)
    {
        var batch = issued.Batch.Id.ToString(CultureInfo.InvariantCulture);
        return CsvFile.Of(["code", "service", "batch", "label"], issued.Codes.Select(code => new[] { code, service, batch, issued.Batch.Label }));
    }
}
