using System.Security.Cryptography;
using System.Text;

namespace Slots.MachineKeys;

/// <summary>
/// How a machine key is made and recognised: 256 random bits, written as "slots_" and base64url,
/// shown once at creation; stored and compared as the SHA-256 of the presented text (64 lowercase
/// hex digits), the same hash a configured key may be given as (Slots:Admin:Keys:NAME:Hash). A
/// random 256-bit secret needs no slow hash: nothing about it can be guessed from its SHA-256.
/// </summary>
public static class MachineKeySecrets
{
    public const string Prefix = "slots_";

    /// <summary>A new secret and its hash.</summary>
    public static (string Secret, string Hash) New()
    {
        var secret = Prefix + Convert.ToBase64String(RandomNumberGenerator.GetBytes(32))
            .TrimEnd('=').Replace('+', '-').Replace('/', '_');
        return (secret, Hash(secret));
    }

    /// <summary>The SHA-256 of the text as UTF-8, in lowercase hex.</summary>
    public static string Hash(string presented) =>
        Convert.ToHexStringLower(SHA256.HashData(Encoding.UTF8.GetBytes(presented)));

    /// <summary>Whether <paramref name="text"/> reads as a hash this class writes (64 hex digits, either case).</summary>
    public static bool IsHash(string? text) =>
        text is { Length: 64 } && text.All(char.IsAsciiHexDigit);
}
