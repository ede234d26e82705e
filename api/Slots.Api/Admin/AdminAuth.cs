using System.Security.Claims;
using System.Text.Encodings.Web;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;
using Slots.Hosting.Staff;

namespace Slots.Api.Admin;

/// <summary>
/// Machines authenticate with a key in the X-Api-Key header (checked by <see cref="StaffKeys"/>):
/// a configured one or one an admin made through /api/admin/keys.
/// A missing or wrong key is 401; a viewer key on an admin action is 403.
/// </summary>
internal sealed class AdminKeyHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options,
    ILoggerFactory logger,
    UrlEncoder encoder,
    StaffKeys keys) : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string Header = StaffKeys.Header;

    protected override async Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        string? presented = Request.Headers[Header];
        if (string.IsNullOrEmpty(presented))
        {
            return AuthenticateResult.NoResult();
        }
        if (await keys.FindAsync(presented, Context.RequestAborted) is { } key)
        {
            var identity = new ClaimsIdentity([new Claim(ClaimTypes.Name, key.Name), new Claim(ClaimTypes.Role, key.Role)], Scheme.Name);
            return AuthenticateResult.Success(new AuthenticationTicket(new ClaimsPrincipal(identity), Scheme.Name));
        }
        return AuthenticateResult.Fail("Unknown, expired or revoked API key.");
    }

    protected override Task HandleChallengeAsync(AuthenticationProperties properties) =>
        Problem.Of(ProblemTypes.Unauthenticated, "Staff credentials are required.",
            $"Send a staff token (Authorization: Bearer) or a machine key in the {Header} header.").ExecuteAsync(Context);

    protected override Task HandleForbiddenAsync(AuthenticationProperties properties) =>
        Problem.Of(ProblemTypes.Forbidden, "This key may not do that.").ExecuteAsync(Context);
}

internal static class AdminAuth
{
    public const string Scheme = "ApiKey";
    public const string AdminPolicy = "admin";
    public const string ViewerPolicy = "viewer";

    /// <summary>Staff endpoints need an API key; people booking never do.</summary>
    public static IHostApplicationBuilder AddAdminAuth(this IHostApplicationBuilder builder)
    {
        builder.AddStaffKeys();
        // The default scheme is StaffAuth's, which reads this one for requests that carry no bearer token.
        builder.Services.AddAuthentication().AddScheme<AuthenticationSchemeOptions, AdminKeyHandler>(Scheme, null);
        builder.Services.AddAuthorizationBuilder()
            .AddPolicy(AdminPolicy, p => p.RequireRole("admin"))
            .AddPolicy(ViewerPolicy, p => p.RequireRole("admin", "viewer"));
        return builder;
    }
}
