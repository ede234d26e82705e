using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Staff;
using Slots.Hosting.Staff;
using Slots.MachineKeys;
using Slots.Staff;

namespace Slots.Api.Admin;

/// <summary>
/// Keys for scripts, made and revoked by admins: the key is shown once at creation and kept only as
/// its SHA-256; each create and revoke goes to the audit trail under whoever did it.
/// </summary>
internal static class MachineKeysEndpoints
{
    /// <summary>How far ahead a key may expire: a forgotten key dies within a year.</summary>
    public static readonly TimeSpan LongestLife = TimeSpan.FromDays(366);

    public static IEndpointRouteBuilder MapMachineKeys(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/admin/keys").WithTags("Admin").RequireAuthorization(AdminAuth.AdminPolicy)
            .Problems([.. ProblemTypes.Shedding, ProblemTypes.Unauthenticated, ProblemTypes.Forbidden]);
        group.MapPost("/", Create).WithName("CreateMachineKey").WithJsonBody<CreateMachineKeyRequest>()
            .WithSummary("Make a machine key")
            .WithDescription("A key for a script's X-Api-Key, with a name, a role and an expiry at most 366 days ahead. The answer carries "
                + "the key, this once; only its SHA-256 is stored. Several keys can work at once: make the next before revoking the last. Admins only.")
            .Problems(ProblemTypes.ValidationFailed);
        group.MapGet("/", List).WithName("ListMachineKeys")
            .WithSummary("The machine keys")
            .WithDescription("Every key made through the API, newest first, with its state (active, expired, revoked), never the key. "
                + "Keys configured in Slots:Admin:Keys are not listed. Admins only.");
        group.MapDelete("/{id}", Revoke).WithName("RevokeMachineKey")
            .WithSummary("Revoke a machine key")
            .WithDescription("The key stops working on this instance at once and on every other within Slots:Admin:KeyRefresh (5 s by default). "
                + "Revoking a revoked key changes nothing. Admins only.")
            .PathId("The key's id.", wide: true)
            .Problems(ProblemTypes.MachineKeyNotFound, ProblemTypes.ValidationFailed);
        return app;
    }

    public static async Task<Results<Created<CreatedMachineKeyDto>, ValidationProblem>> Create(
        JsonBody<CreateMachineKeyRequest> request, HttpContext http, IMachineKeyStore store, StaffKeys keys, StaffService staff,
        TimeProvider clock, CancellationToken ct)
    {
        var body = request.Value;
        var now = clock.GetUtcNow();
        var v = new Validation();
        AdminEndpoints.Required(v, "name", body.Name, 100);
        if (body.Role is null || !MachineKeyRoles.All.Contains(body.Role))
        {
            v.Add("role", "admin or viewer.");
        }
        if (body.ExpiresAt is not { } expires)
        {
            v.Add("expiresAt", "When the key stops working is required (ISO 8601 with an offset).");
        }
        else if (expires <= now || expires > now + LongestLife)
        {
            v.Add("expiresAt", "In the future, at most 366 days from now.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var by = StaffMember.Of(http.User).Subject;
        var (secret, hash) = MachineKeySecrets.New();
        var key = await store.AddAsync(new NewMachineKey(body.Name!.Trim(), body.Role!, hash, now, by, body.ExpiresAt!.Value), ct);
        keys.Forget();
        await staff.RecordAsync(by, null, AuditActions.MachineKeyCreated, Target(key), null, ct);
        return TypedResults.Created((string?)null,
            new CreatedMachineKeyDto(key.Id, key.Name, key.Role, key.CreatedAt, key.CreatedBy, key.ExpiresAt, secret));
    }

    public static async Task<Ok<MachineKeyDto[]>> List(IMachineKeyStore store, TimeProvider clock, CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        return TypedResults.Ok((await store.ListAsync(ct)).Select(k => new MachineKeyDto(k.Id, k.Name, k.Role,
            k.RevokedAt is not null ? "revoked" : k.WorksAt(now) ? "active" : "expired",
            k.CreatedAt, k.CreatedBy, k.ExpiresAt, k.RevokedAt, k.RevokedBy)).ToArray());
    }

    public static async Task<Results<NoContent, ProblemHttpResult, ValidationProblem>> Revoke(
        string id, HttpContext http, IMachineKeyStore store, StaffKeys keys, StaffService staff, TimeProvider clock, CancellationToken ct)
    {
        if (!Formats.TryId(id, out long keyId))
        {
            return Problem.Invalid("id", "A positive whole number.");
        }
        var by = StaffMember.Of(http.User).Subject;
        switch (await store.RevokeAsync(keyId, clock.GetUtcNow(), by, ct))
        {
            case RevokeOutcome.NotFound:
                return Problem.Of(ProblemTypes.MachineKeyNotFound, "There is no such machine key.");
            case RevokeOutcome.Revoked:
                keys.Forget();
                await staff.RecordAsync(by, null, AuditActions.MachineKeyRevoked, $"key {keyId}", null, ct);
                break;
        }
        return TypedResults.NoContent();
    }

    private static string Target(MachineKey key) => $"key {key.Id}: {key.Name} ({key.Role})";
}
