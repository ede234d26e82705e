using System.Security.Cryptography;
using System.Text;

namespace Slots.Eligibility;

/// <summary>
/// Invitation codes: 12 symbols of Crockford's base32 (60 random bits from a CSPRNG), shown as
/// XXXX-XXXX-XXXX. Typed by people from paper or an SMS, so reading forgives what Crockford
/// forgives: any case, dashes and spaces, I and L for 1, O for 0. Stored only as
/// <see cref="Hash"/>: HMAC-SHA256 under the campaign's secret, 64 lowercase hex characters (the
/// form the person hashes take), so a leaked table gives no code away and a new secret kills every
/// unspent code.
/// </summary>
public static class InvitationCode
{
    private const string Alphabet = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

    /// <summary>Symbols in a code, without its dashes: 12 × 5 bits = 60 bits.</summary>
    public const int Symbols = 12;

    private const int Group = 4;

    /// <summary>A new code, as shown: XXXX-XXXX-XXXX. 32 symbols are exactly 5 bits, so no symbol is likelier than another.</summary>
    public static string New()
    {
        Span<byte> random = stackalloc byte[8];
        RandomNumberGenerator.Fill(random);
        var bits = BitConverter.ToUInt64(random);
        Span<char> symbols = stackalloc char[Symbols];
        for (var i = 0; i < Symbols; i++)
        {
            symbols[i] = Alphabet[(int)(bits & 31)];
            bits >>= 5;
        }
        return Format(symbols);
    }

    /// <summary>
    /// The 12 symbols of a code as typed, uppercased and without dashes or spaces (the form
    /// <see cref="Hash"/> takes); null when it cannot be a code: wrong length or a symbol outside
    /// the alphabet (U included, which Crockford leaves out).
    /// </summary>
    public static string? Normalize(string? input)
    {
        if (string.IsNullOrWhiteSpace(input) || input.Length > 40)
        {
            return null;
        }
        Span<char> symbols = stackalloc char[Symbols];
        var n = 0;
        foreach (var raw in input)
        {
            if (raw is ' ' or '-')
            {
                continue;
            }
            var c = char.ToUpperInvariant(raw) switch
            {
                'I' or 'L' => '1',
                'O' => '0',
                var other => other,
            };
            if (n == Symbols || !Alphabet.Contains(c, StringComparison.Ordinal))
            {
                return null;
            }
            symbols[n++] = c;
        }
        return n == Symbols ? new string(symbols) : null;
    }

    /// <summary>A normalized code as people see it: XXXX-XXXX-XXXX.</summary>
    public static string Format(ReadOnlySpan<char> normalized)
    {
        if (normalized.Length != Symbols)
        {
            throw new ArgumentException($"An invitation code has {Symbols} symbols.", nameof(normalized));
        }
        return $"{normalized[..Group]}-{normalized[Group..(2 * Group)]}-{normalized[(2 * Group)..]}";
    }

    /// <summary>
    /// The keyed hash stored for a code: HMAC-SHA256 under <paramref name="key"/>, 64 lowercase hex
    /// characters. Takes the code only in its normalized form, so every way of typing it gives one hash.
    /// </summary>
    public static string Hash(ReadOnlySpan<byte> key, string normalized)
    {
        if (key.IsEmpty)
        {
            throw new ArgumentException("The invitation key is empty.", nameof(key));
        }
        if (Normalize(normalized) != normalized)
        {
            // The code itself stays out of the message: it is a secret until spent.
            throw new ArgumentException("Hash takes a code in the form Normalize gives.", nameof(normalized));
        }
        Span<byte> mac = stackalloc byte[32];
        HMACSHA256.HashData(key, Encoding.ASCII.GetBytes(normalized), mac);
        return Convert.ToHexStringLower(mac);
    }
}
