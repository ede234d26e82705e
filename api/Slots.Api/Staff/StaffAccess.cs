namespace Slots.Api.Staff;

/// <summary>The least staff role an endpoint at a place needs.</summary>
internal sealed record StaffRoleMetadata(string Role);

/// <summary>
/// Every endpoint under /api/staff/places/{placeId} checks the role and the place, in one filter:
/// a role below the endpoint's is 403 forbidden, a place outside the token's is 403 place-forbidden.
/// </summary>
internal static class StaffAccess
{
    public static RouteHandlerBuilder AtPlace(this RouteHandlerBuilder endpoint, string role) =>
        endpoint
            .WithMetadata(new StaffRoleMetadata(role))
            .PathId("The place's id.", name: "placeId")
            .Problems(ProblemTypes.Forbidden, ProblemTypes.PlaceForbidden, ProblemTypes.ValidationFailed)
            .AddEndpointFilter(async (context, next) =>
            {
                var http = context.HttpContext;
                if (!Formats.TryId(http.Request.RouteValues["placeId"] as string ?? "", out int placeId))
                {
                    return Problem.Invalid("placeId", Formats.PlaceIdExpected);
                }
                var member = StaffMember.Of(http.User);
                if (member.MayAt(placeId, role))
                {
                    return await next(context);
                }
                return member.Role is { } held && StaffRoles.Rank(held) >= StaffRoles.Rank(role)
                    ? Problem.Of(ProblemTypes.PlaceForbidden, "This place is not among yours.")
                    : Problem.Of(ProblemTypes.Forbidden, "Your role may not do this.", $"It needs {role} or above.");
            });

    /// <summary>+421905123456 → +421******456: enough to tell two people apart at the door, not to call them.</summary>
    public static string Mask(string phone) =>
        phone.Length <= 7 ? new string('*', phone.Length) : string.Concat(phone.AsSpan(0, 4), new string('*', phone.Length - 7), phone.AsSpan(phone.Length - 3));
}
