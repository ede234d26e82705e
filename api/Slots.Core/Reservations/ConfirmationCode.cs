using System.Security.Cryptography;

namespace Slots.Reservations;

/// <summary>
/// Confirmation codes: 10 symbols from an alphabet without look-alikes (no 0/O, 1/I/L, U),
/// shown as XXXXX-XXXXX. 30^10 ≈ 5.9e14 codes drawn from a CSPRNG, so codes are not guessable;
/// a code alone still reveals nothing because lookups need the phone or national id.
/// </summary>
public static class ConfirmationCode
{
    private const string Alphabet = "23456789ABCDEFGHJKMNPQRSTVWXYZ";
    private const int Symbols = 10;

    // The largest multiple of the alphabet's size in a byte: a byte at or above it is drawn again,
    // so every symbol stays equally likely.
    private static readonly int Unbiased = 256 / Alphabet.Length * Alphabet.Length;

    /// <summary>A new code: one call to the CSPRNG for the bytes of all its symbols (a call per symbol cost ten).</summary>
    public static string New() => string.Create(Symbols + 1, 0, static (span, _) =>
    {
        Span<byte> random = stackalloc byte[16];
        var used = random.Length;
        for (var i = 0; i < span.Length; i++)
        {
            if (i == 5)
            {
                span[i] = '-';
                continue;
            }
            int b;
            do
            {
                if (used == random.Length)
                {
                    RandomNumberGenerator.Fill(random);
                    used = 0;
                }
                b = random[used++];
            }
            while (b >= Unbiased);
            span[i] = Alphabet[b % Alphabet.Length];
        }
    });

    /// <summary>Uppercases and drops spaces and dashes; null when the input cannot be a code.</summary>
    public static string? Normalize(string? input)
    {
        if (string.IsNullOrWhiteSpace(input) || input.Length > 32)
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
            var c = char.ToUpperInvariant(raw);
            if (n == Symbols || !Alphabet.Contains(c, StringComparison.Ordinal))
            {
                return null;
            }
            symbols[n++] = c;
        }
        return n == Symbols ? $"{symbols[..5]}-{symbols[5..]}" : null;
    }
}
