using System.Security.Claims;
using System.Security.Cryptography;
using System.Text;
using System.Text.Encodings.Web;
using Microsoft.AspNetCore.Authentication;
using Microsoft.Extensions.Options;
using Slots.Api.Problems;

namespace Slots.Api.Admin;

public sealed class AdminKey
{
    public string Key { get; set; } = "";

    /// <summary>admin (everything) or viewer (statistics only).</summary>
    public string Role { get; set; } = "viewer";
}

public sealed class AdminOptions
{
    public const string Section = "Slots:Admin";

    /// <summary>Named API keys, e.g. Slots:Admin:Keys:ops:Key and Slots:Admin:Keys:ops:Role.</summary>
    public Dictionary<string, AdminKey> Keys { get; set; } = [];
}

/// <summary>
/// Staff authenticate with an API key in the X-Api-Key header. Keys are compared as SHA-256
/// hashes in constant time. A missing or wrong key is 401; a viewer key on an admin action is 403.
/// </summary>
internal sealed class AdminKeyHandler(
    IOptionsMonitor<AuthenticationSchemeOptions> options,
    ILoggerFactory logger,
    UrlEncoder encoder,
    IOptionsMonitor<AdminOptions> admin) : AuthenticationHandler<AuthenticationSchemeOptions>(options, logger, encoder)
{
    public const string Header = "X-Api-Key";

    protected override Task<AuthenticateResult> HandleAuthenticateAsync()
    {
        string? presented = Request.Headers[Header];
        if (string.IsNullOrEmpty(presented))
        {
            return Task.FromResult(AuthenticateResult.NoResult());
        }
        var presentedHash = SHA256.HashData(Encoding.UTF8.GetBytes(presented));
        foreach (var (name, key) in admin.CurrentValue.Keys)
        {
            if (key.Key.Length >= 16 &&
                CryptographicOperations.FixedTimeEquals(presentedHash, SHA256.HashData(Encoding.UTF8.GetBytes(key.Key))))
            {
                var identity = new ClaimsIdentity([new Claim(ClaimTypes.Name, name), new Claim(ClaimTypes.Role, key.Role)], Scheme.Name);
                return Task.FromResult(AuthenticateResult.Success(new AuthenticationTicket(new ClaimsPrincipal(identity), Scheme.Name)));
            }
        }
        return Task.FromResult(AuthenticateResult.Fail("Unknown API key."));
    }

    protected override Task HandleChallengeAsync(AuthenticationProperties properties) =>
        Problem.Of(StatusCodes.Status401Unauthorized, "unauthenticated", "An API key is required.",
            $"Send a valid staff key in the {Header} header.").ExecuteAsync(Context);

    protected override Task HandleForbiddenAsync(AuthenticationProperties properties) =>
        Problem.Of(StatusCodes.Status403Forbidden, "forbidden", "This key may not do that.").ExecuteAsync(Context);
}

internal static class AdminAuth
{
    public const string Scheme = "ApiKey";
    public const string AdminPolicy = "admin";
    public const string ViewerPolicy = "viewer";

    /// <summary>Staff endpoints need an API key; people booking never do.</summary>
    public static IHostApplicationBuilder AddAdminAuth(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<AdminOptions>().BindConfiguration(AdminOptions.Section);
        builder.Services.AddAuthentication(Scheme).AddScheme<AuthenticationSchemeOptions, AdminKeyHandler>(Scheme, null);
        builder.Services.AddAuthorizationBuilder()
            .AddPolicy(AdminPolicy, p => p.RequireRole("admin"))
            .AddPolicy(ViewerPolicy, p => p.RequireRole("admin", "viewer"));
        return builder;
    }
}
