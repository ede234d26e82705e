using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Options;

namespace Slots.Persons;

public sealed class PersonOptions
{
    public const string Section = "Slots:Persons";

    /// <summary>The HMAC key for national ids. Keep it secret; to change it, rotate (PreviousHmacSecret), or who booked is forgotten.</summary>
    public string HmacSecret { get; set; } = "";

    /// <summary>
    /// The key HmacSecret replaced, during a rotation: new rows are hashed with HmacSecret, and a
    /// look-up that finds nothing under it tries this one until <see cref="PreviousUntil"/>.
    /// </summary>
    public string PreviousHmacSecret { get; set; } = "";

    /// <summary>Until when the previous key is tried: past the last appointment booked under it (and its retention).</summary>
    public DateTimeOffset? PreviousUntil { get; set; }

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
    private readonly byte[]? _previousKey;
    private readonly DateTimeOffset _previousUntil;
    private readonly TimeProvider _clock;

    public PersonIdentity(IOptions<PersonOptions> options, TimeProvider clock)
    {
        var o = options.Value;
        if (string.IsNullOrWhiteSpace(o.HmacSecret) || o.HmacSecret.Length < 16)
        {
            throw new InvalidOperationException(
                $"Configuration '{PersonOptions.Section}:HmacSecret' must hold a secret of at least 16 characters.");
        }
        _key = Encoding.UTF8.GetBytes(o.HmacSecret);
        if (!string.IsNullOrEmpty(o.PreviousHmacSecret) && o.PreviousUntil is { } until)
        {
            _previousKey = Encoding.UTF8.GetBytes(o.PreviousHmacSecret);
            _previousUntil = until;
        }
        _clock = clock;
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

    /// <summary>The keyed hash of a normalised national id, as 64 hex characters: what new rows keep.</summary>
    public string Hash(string normalizedNationalId) => Hash(_key, normalizedNationalId);

    /// <summary>The hash under the previous key while a rotation is under way; null otherwise. Look-ups try it only after a miss.</summary>
    public string? PreviousHash(string normalizedNationalId) =>
        _previousKey is not null && _clock.GetUtcNow() < _previousUntil ? Hash(_previousKey, normalizedNationalId) : null;

    /// <summary>Both hashes a stored row may hold for this national id.</summary>
    public PersonHashes Hashes(string normalizedNationalId) => new(Hash(normalizedNationalId), PreviousHash(normalizedNationalId));

    private static string Hash(byte[] key, string normalizedNationalId)
    {
        Span<byte> mac = stackalloc byte[32];
        HMACSHA256.HashData(key, Encoding.UTF8.GetBytes(normalizedNationalId), mac);
        return Convert.ToHexStringLower(mac);
    }
}

/// <summary>A national id's hash under the current key, and under the previous one while a rotation is under way.</summary>
public sealed record PersonHashes(string Current, string? Previous)
{
    public bool Match(string? stored) =>
        string.Equals(stored, Current, StringComparison.Ordinal) || (Previous is not null && string.Equals(stored, Previous, StringComparison.Ordinal));
}
