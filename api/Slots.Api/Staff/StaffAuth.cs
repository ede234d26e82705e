using Microsoft.AspNetCore.Authentication.JwtBearer;
using Slots.Api.Admin;

namespace Slots.Api.Staff;

/// <summary>
/// Staff sign in with a bearer token from the site's OpenID provider: standard JWT bearer, set up
/// in Authentication:Schemes:Bearer (Authority, ValidAudiences) as ASP.NET Core reads it, so any
/// real provider works. In Development, `dotnet user-jwts` (./slots staff token) writes a local
/// signing key there instead, read even when made after the start; a start outside Development with
/// that key is refused (DevelopmentSecrets). Machines keep their X-Api-Key; a request is read with
/// whichever of the two it carries.
/// </summary>
internal static class StaffAuth
{
    public const string Scheme = "Staff";
    public const string Policy = "staff";

    /// <summary>What `dotnet user-jwts` names as the issuer of the keys it makes.</summary>
    internal const string DevelopmentIssuer = Slots.Hosting.Secrets.DevelopmentSecrets.DevelopmentIssuer;

    public static IHostApplicationBuilder AddStaffAuth(this IHostApplicationBuilder builder)
    {
        // How far a token's expiry may lag the clock here: the framework's 5 minutes let a signed-out
        // member's token work that long; 30 s covers real clock drift between provider and API.
        var skew = builder.Configuration.GetValue("Slots:Staff:TokenClockSkew", TimeSpan.FromSeconds(30));
        var developmentKeys = builder.Environment.IsDevelopment() ? DevelopmentSigningKeys.Of(typeof(Program).Assembly) : null;
        builder.Services.AddAuthentication(Scheme)
            .AddPolicyScheme(Scheme, "Staff token or machine key", o => o.ForwardDefaultSelector = context =>
                context.Request.Headers.Authorization.ToString().StartsWith("Bearer ", StringComparison.OrdinalIgnoreCase)
                    ? JwtBearerDefaults.AuthenticationScheme
                    : AdminAuth.Scheme)
            .AddJwtBearer(o =>
            {
                // The claims as the provider wrote them: "role" and "places", not remapped to long URIs.
                o.MapInboundClaims = false;
                o.TokenValidationParameters.RoleClaimType = StaffMember.RoleClaim;
                o.TokenValidationParameters.NameClaimType = "sub";
                o.TokenValidationParameters.ClockSkew = skew;
                if (developmentKeys is not null)
                {
                    // The configured keys, the provider's (its metadata, when an Authority is set) and whatever
                    // `dotnet user-jwts` has written since the start. A resolver's keys are the only ones tried,
                    // so the provider's must be among them: a development key alone shut the provider out.
                    o.TokenValidationParameters.IssuerSigningKeyResolverUsingConfiguration = (_, _, _, parameters, configuration) =>
                        [.. configuration?.SigningKeys ?? [], .. parameters.IssuerSigningKeys ?? [], .. developmentKeys.Current()];
                }
                o.Events = new JwtBearerEvents
                {
                    OnChallenge = async context =>
                    {
                        context.HandleResponse();
                        await Problem.Of(ProblemTypes.Unauthenticated, "A valid staff token is required.",
                            context.AuthenticateFailure is null
                                ? "Sign in again: send the token in Authorization: Bearer."
                                : "The token is expired, not for this API, or not signed by the configured provider; sign in again.")
                            .ExecuteAsync(context.HttpContext);
                    },
                    OnForbidden = context =>
                        Problem.Of(ProblemTypes.Forbidden, "Your role may not do this.").ExecuteAsync(context.HttpContext),
                };
            });
        builder.Services.AddAuthorizationBuilder()
            .AddPolicy(Policy, p => p.RequireRole(StaffRoles.All));
        return builder;
    }

    /// <summary>
    /// Authentication for the requests that carry a credential: a bearer token or a machine key. A request with neither
    /// (every person booking, every availability read) would be read by both schemes only to come out anonymous, at a
    /// handler, a task and a dictionary or two each: a stampede's answers are mostly those. Its user is anonymous either
    /// way, and a staff endpoint answers it 401 as before (the authorization's own check challenges the default scheme).
    /// </summary>
    public static IApplicationBuilder UseStaffAuthentication(this IApplicationBuilder app)
    {
        // WebApplication puts authentication first in the pipeline of an app that registers it and has not placed it
        // itself, which it learns from this key; placed in a branch, only the branch's copy of the key is set. Without it
        // every request would be authenticated anyway (StaffAuthenticationTests count it).
        app.Properties[AuthenticationPlacedKey] = true;
        return app.UseWhen(static http => CarriesCredential(http.Request.Headers), static branch => branch.UseAuthentication());
    }

    private const string AuthenticationPlacedKey = "__AuthenticationMiddlewareSet";

    private static bool CarriesCredential(IHeaderDictionary headers) =>
        headers.ContainsKey(Microsoft.Net.Http.Headers.HeaderNames.Authorization) || headers.ContainsKey(AdminKeyHandler.Header);
}
