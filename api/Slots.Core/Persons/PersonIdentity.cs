using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Options;

namespace Slots.Persons;

public sealed class PersonOptions
{
    public const string Section = "Slots:Persons";

    /// <summary>The HMAC key for national ids. Keep it secret and stable: changing it forgets who booked.</summary>
    public string HmacSecret { get; set; } = "";

    /// <summary>Country calling code added to national-format phone numbers (leading 0).</summary>
    public string DefaultCountryCode { get; set; } = "421";
}

/// <summary>
/// Turns a national id into the keyed HMAC that is the only form Slots keeps. Enough to enforce
/// one reservation per person and to check a person at the door, useless to anyone without the key.
/// </summary>
public sealed class PersonIdentity
{
    private readonly byte[] _key;

    public PersonIdentity(IOptions<PersonOptions> options)
    {
        var secret = options.Value.HmacSecret;
        if (string.IsNullOrWhiteSpace(secret) || secret.Length < 16)
        {
            throw new InvalidOperationException(
                $"Configuration '{PersonOptions.Section}:HmacSecret' must hold a secret of at least 16 characters.");
        }
        _key = Encoding.UTF8.GetBytes(secret);
    }

    /// <summary>Letters and digits only, uppercased: "780312/1234" and "7803121234" are one person.</summary>
    public static string? NormalizeNationalId(string? input)
    {
        if (string.IsNullOrWhiteSpace(input) || input.Length > 40)
        {
            return null;
        }
        var sb = new StringBuilder(input.Length);
        foreach (var c in input)
        {
            if (char.IsAsciiLetterOrDigit(c))
            {
                sb.Append(char.ToUpperInvariant(c));
            }
            else if (c is not (' ' or '/' or '-' or '.'))
            {
                return null;
            }
        }
        return sb.Length is >= 6 and <= 20 ? sb.ToString() : null;
    }

    /// <summary>The keyed hash of a normalised national id, as 64 hex characters.</summary>
    public string Hash(string normalizedNationalId)
    {
        Span<byte> mac = stackalloc byte[32];
        HMACSHA256.HashData(_key, Encoding.UTF8.GetBytes(normalizedNationalId), mac);
        return Convert.ToHexStringLower(mac);
    }
}
