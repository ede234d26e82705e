using System.Security.Cryptography;
using Microsoft.IdentityModel.JsonWebTokens;
using Microsoft.IdentityModel.Tokens;

namespace Slots.Testing.Web;

/// <summary>
/// Staff tokens the way `dotnet user-jwts` makes them for Development: a signing key named in
/// Authentication:Schemes:Bearer:SigningKeys, and standard JWTs signed with it. The sign-in through
/// a real OpenID provider has its own tests (StaffSignInTests); these cover what the API does with
/// a valid, expired, foreign or unsigned token, at every role and place.
/// </summary>
public sealed class StaffTokens
{
    public const string Issuer = "slots-tests";
    public const string Audience = "slots-api";

    private readonly byte[] _key = RandomNumberGenerator.GetBytes(32);

    /// <summary>The host settings that make the API accept this issuer's tokens.</summary>
    public IReadOnlyDictionary<string, string?> Settings => new Dictionary<string, string?>
    {
        ["Authentication:Schemes:Bearer:ValidIssuer"] = Issuer,
        ["Authentication:Schemes:Bearer:ValidAudiences:0"] = Audience,
        ["Authentication:Schemes:Bearer:SigningKeys:0:Issuer"] = Issuer,
        ["Authentication:Schemes:Bearer:SigningKeys:0:Value"] = Convert.ToBase64String(_key),
        ["Authentication:Schemes:Bearer:SigningKeys:0:Length"] = "32",
    };

    public string For(string subject, string role, params int[] places) =>
        Token(subject, [role], places, DateTime.UtcNow.AddMinutes(10), Audience, _key);

    /// <summary>Valid from now until <paramref name="ahead"/> and 10 minutes more: for a host whose clock runs that far ahead.</summary>
    public string Spanning(TimeSpan ahead, string subject, string role, params int[] places) =>
        new JsonWebTokenHandler().CreateToken(Descriptor(subject, [role], places, DateTime.UtcNow.Add(ahead).AddMinutes(10), Audience,
            new SigningCredentials(new SymmetricSecurityKey(_key), SecurityAlgorithms.HmacSha256), notBefore: DateTime.UtcNow.AddMinutes(-20)));

    public string Expired(string subject, string role, params int[] places) =>
        Token(subject, [role], places, DateTime.UtcNow.AddMinutes(-10), Audience, _key);

    public string ForAudience(string audience, string subject, string role, params int[] places) =>
        Token(subject, [role], places, DateTime.UtcNow.AddMinutes(10), audience, _key);

    /// <summary>Signed with another key: what a token from someone else's provider looks like here.</summary>
    public static string Foreign(string subject, string role, params int[] places) =>
        Token(subject, [role], places, DateTime.UtcNow.AddMinutes(10), Audience, RandomNumberGenerator.GetBytes(32));

    /// <summary>alg "none": a token anyone can write.</summary>
    public static string WithoutSignature(string subject, string role, params int[] places) =>
        new JsonWebTokenHandler().CreateToken(Descriptor(subject, [role], places, DateTime.UtcNow.AddMinutes(10), Audience, credentials: null));

    private static string Token(string subject, string[] roles, int[] places, DateTime expires, string audience, byte[] key) =>
        new JsonWebTokenHandler().CreateToken(Descriptor(subject, roles, places, expires, audience,
            new SigningCredentials(new SymmetricSecurityKey(key), SecurityAlgorithms.HmacSha256)));

    private static SecurityTokenDescriptor Descriptor(string subject, string[] roles, int[] places, DateTime expires, string audience,
        SigningCredentials? credentials, DateTime? notBefore = null) => new()
        {
            Issuer = Issuer,
            Audience = audience,
            IssuedAt = notBefore ?? expires.AddMinutes(-20),
            NotBefore = notBefore ?? expires.AddMinutes(-20),
            Expires = expires,
            SigningCredentials = credentials,
            Claims = new Dictionary<string, object>
            {
                ["sub"] = subject,
                ["role"] = roles,
                ["places"] = places.Select(p => p.ToString(System.Globalization.CultureInfo.InvariantCulture)).ToArray(),
            },
        };
}
