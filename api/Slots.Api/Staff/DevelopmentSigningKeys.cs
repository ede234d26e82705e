using System.Reflection;
using Microsoft.Extensions.Configuration.UserSecrets;
using Microsoft.IdentityModel.Tokens;

namespace Slots.Api.Staff;

/// <summary>
/// Development only: the signing keys `dotnet user-jwts` (./slots staff token) keeps in this
/// machine's user secrets, read again whenever that file changes. Configuration alone misses a key
/// made after the start: on a fresh machine the user-secrets folder does not exist when `./slots run`
/// starts, so nothing watches it, and JwtBearer builds its options once anyway. The first token was
/// then refused ("not signed by the configured provider") until a restart (#39).
/// </summary>
internal sealed class DevelopmentSigningKeys(string secretsPath)
{
    private const string KeysSection = "Authentication:Schemes:Bearer:SigningKeys";

    private readonly Lock _lock = new();
    private DateTime _readVersion = DateTime.MinValue;
    private SecurityKey[] _keys = [];

    /// <summary>The keys of the assembly's user secrets; null when it names none.</summary>
    public static DevelopmentSigningKeys? Of(Assembly assembly) =>
        assembly.GetCustomAttribute<UserSecretsIdAttribute>() is { } id
            ? new DevelopmentSigningKeys(PathHelper.GetSecretsPathFromSecretsId(id.UserSecretsId))
            : null;

    /// <summary>The development keys as the file holds them now: one stat per call, a read only after a change.</summary>
    public IReadOnlyList<SecurityKey> Current()
    {
        var version = File.Exists(secretsPath) ? File.GetLastWriteTimeUtc(secretsPath) : DateTime.MinValue;
        lock (_lock)
        {
            if (version != _readVersion && TryRead(out var keys))
            {
                _keys = keys;
                _readVersion = version;
            }
            return _keys;
        }
    }

    private bool TryRead(out SecurityKey[] keys)
    {
        keys = [];
        try
        {
            if (!File.Exists(secretsPath))
            {
                return true;
            }
            using var json = new MemoryStream(File.ReadAllBytes(secretsPath));
            var secrets = new ConfigurationBuilder().AddJsonStream(json).Build();
            keys = [.. secrets.GetSection(KeysSection).GetChildren()
                .Where(k => string.Equals(k["Issuer"], StaffAuth.DevelopmentIssuer, StringComparison.Ordinal) && !string.IsNullOrEmpty(k["Value"]))
                .Select(k => new SymmetricSecurityKey(Convert.FromBase64String(k["Value"]!)))];
            return true;
        }
        catch (Exception e) when (e is IOException or FormatException or InvalidDataException or UnauthorizedAccessException)
        {
            // Caught half-written by the tool: the next token read tries again.
            return false;
        }
    }
}
