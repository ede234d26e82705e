using Microsoft.AspNetCore.Authentication.JwtBearer;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.Authorization.Infrastructure;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.OpenApi;
using Slots.Api.Admin;
using Slots.Api.Staff;
using Slots.MachineKeys;

namespace Slots.Api.Http;

/// <summary>
/// Each operation's security as the server applies it, read from the same metadata the
/// authorization middleware reads: which schemes authenticate it (both, unless the endpoint names
/// its schemes) and which roles its policies and its staff role take. The roles go in each
/// requirement's list (OpenAPI 3.1 allows role names for non-OAuth schemes); a scheme none of whose
/// holders can have such a role is left out (a machine key is admin or viewer, never site staff).
/// An operation anyone may call says so with one empty requirement.
/// </summary>
internal static partial class ContractTransformers
{
    private static async Task<List<OpenApiSecurityRequirement>> SecurityAsync(OpenApiOperationTransformerContext context)
    {
        var metadata = context.Description.ActionDescriptor.EndpointMetadata;
        var authorize = metadata.OfType<IAuthorizeData>().ToList();
        if (authorize.Count == 0 || metadata.OfType<IAllowAnonymous>().Any())
        {
            return [new OpenApiSecurityRequirement()];
        }
        var policies = context.ApplicationServices.GetRequiredService<IAuthorizationPolicyProvider>();
        IEnumerable<string>? roles = null;
        var schemes = new HashSet<string>(StringComparer.Ordinal);
        foreach (var data in authorize)
        {
            var policy = data.Policy is { } name ? await policies.GetPolicyAsync(name) : null;
            foreach (var allowed in (policy?.Requirements ?? []).OfType<RolesAuthorizationRequirement>().Select(r => r.AllowedRoles)
                .Append(data.Roles?.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries) ?? []).Where(r => r.Any()))
            {
                roles = roles is null ? [.. allowed] : [.. roles.Intersect(allowed)];
            }
            foreach (var scheme in (data.AuthenticationSchemes?.Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries) ?? [])
                .Concat(policy?.AuthenticationSchemes ?? []))
            {
                schemes.Add(scheme);
            }
        }
        if (metadata.OfType<StaffRoleMetadata>().LastOrDefault() is { } least)
        {
            var staffRoles = StaffRoles.All.Where(r => StaffRoles.Rank(r) >= StaffRoles.Rank(least.Role));
            roles = roles is null ? [.. staffRoles] : [.. roles.Intersect(staffRoles)];
        }
        // No scheme named: the default one, which reads a bearer token when one is sent and the key otherwise.
        var bearer = schemes.Count == 0 || schemes.Contains(StaffAuth.Scheme) || schemes.Contains(JwtBearerDefaults.AuthenticationScheme);
        var key = schemes.Count == 0 || schemes.Contains(StaffAuth.Scheme) || schemes.Contains(AdminAuth.Scheme);
        var personRoles = roles?.ToList() ?? [];
        var keyRoles = roles is null ? [] : personRoles.Intersect(MachineKeyRoles.All).ToList();
        var requirements = new List<OpenApiSecurityRequirement>();
        if (bearer)
        {
            requirements.Add(new OpenApiSecurityRequirement { [new OpenApiSecuritySchemeReference(BearerScheme, context.Document)] = personRoles });
        }
        if (key && (roles is null || keyRoles.Count > 0))
        {
            requirements.Add(new OpenApiSecurityRequirement { [new OpenApiSecuritySchemeReference(ApiKeyScheme, context.Document)] = keyRoles });
        }
        return requirements;
    }
}
