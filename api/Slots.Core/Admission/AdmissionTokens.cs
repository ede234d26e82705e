using System.Buffers.Binary;
using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text;
using Microsoft.Extensions.Options;

namespace Slots.Admission;

/// <summary>
/// What a waiting-room token says: the opening (which fixes the scope), the ticket (the place in
/// join order the position is derived from), when it was issued, until when it is honoured, and
/// a random nonce. No personal data.
/// </summary>
public readonly record struct AdmissionToken(long OpeningId, long Ticket, DateTimeOffset IssuedAt, DateTimeOffset ExpiresAt, UInt128 Nonce);

public enum TokenCheck
{
    Valid = 1,
    Malformed = 2,
    Forged = 3,
    Expired = 4,
}

/// <summary>
/// Issues and checks signed tokens: base64url(payload) "." base64url(HMAC-SHA256(payload)).
/// Checking is a MAC over 49 bytes: any instance does it without the database.
/// </summary>
public sealed class AdmissionTokens
{
    private const byte Version = 1;
    private const int PayloadLength = 1 + 8 + 8 + 8 + 8 + 16;
    private const int MacLength = 32;
    private readonly byte[] _key;

    public AdmissionTokens(IOptions<AdmissionOptions> options)
    {
        var key = options.Value.SigningKey;
        if (string.IsNullOrEmpty(key) || key.Length < 32)
        {
            throw new InvalidOperationException($"Configuration '{AdmissionOptions.Section}:SigningKey' must hold a key of at least 32 characters.");
        }
        _key = Encoding.UTF8.GetBytes(key);
    }

    public string Issue(long openingId, long ticket, DateTimeOffset now, TimeSpan lifetime)
    {
        Span<byte> nonce = stackalloc byte[16];
        RandomNumberGenerator.Fill(nonce);
        var token = new AdmissionToken(openingId, ticket, now, now + lifetime, BinaryPrimitives.ReadUInt128LittleEndian(nonce));
        return Write(token);
    }

    public string Write(AdmissionToken token)
    {
        Span<byte> payload = stackalloc byte[PayloadLength];
        payload[0] = Version;
        BinaryPrimitives.WriteInt64LittleEndian(payload[1..], token.OpeningId);
        BinaryPrimitives.WriteInt64LittleEndian(payload[9..], token.Ticket);
        BinaryPrimitives.WriteInt64LittleEndian(payload[17..], token.IssuedAt.ToUnixTimeSeconds());
        BinaryPrimitives.WriteInt64LittleEndian(payload[25..], token.ExpiresAt.ToUnixTimeSeconds());
        BinaryPrimitives.WriteUInt128LittleEndian(payload[33..], token.Nonce);
        Span<byte> mac = stackalloc byte[MacLength];
        HMACSHA256.HashData(_key, payload, mac);
        return Base64Url.EncodeToString(payload) + "." + Base64Url.EncodeToString(mac);
    }

    /// <summary>Whether <paramref name="text"/> is a token this deployment signed and still honours at <paramref name="now"/>.</summary>
    public TokenCheck Check(string? text, DateTimeOffset now, out AdmissionToken token)
    {
        token = default;
        if (string.IsNullOrEmpty(text) || text.Length > 200)
        {
            return TokenCheck.Malformed;
        }
        var dot = text.IndexOf('.', StringComparison.Ordinal);
        Span<byte> payload = stackalloc byte[PayloadLength + 2];
        Span<byte> mac = stackalloc byte[MacLength + 2];
        if (dot < 0
            || !TryDecode(text.AsSpan(0, dot), payload, out var payloadLength) || payloadLength != PayloadLength
            || !TryDecode(text.AsSpan(dot + 1), mac, out var macLength) || macLength != MacLength
            || payload[0] != Version)
        {
            return TokenCheck.Malformed;
        }
        Span<byte> expected = stackalloc byte[MacLength];
        HMACSHA256.HashData(_key, payload[..PayloadLength], expected);
        if (!CryptographicOperations.FixedTimeEquals(expected, mac[..MacLength]))
        {
            return TokenCheck.Forged;
        }
        token = new AdmissionToken(
            BinaryPrimitives.ReadInt64LittleEndian(payload[1..]),
            BinaryPrimitives.ReadInt64LittleEndian(payload[9..]),
            DateTimeOffset.FromUnixTimeSeconds(BinaryPrimitives.ReadInt64LittleEndian(payload[17..])),
            DateTimeOffset.FromUnixTimeSeconds(BinaryPrimitives.ReadInt64LittleEndian(payload[25..])),
            BinaryPrimitives.ReadUInt128LittleEndian(payload[33..]));
        return token.ExpiresAt <= now ? TokenCheck.Expired : TokenCheck.Valid;
    }

    /// <summary>
    /// Decodes base64url, false for anything that is not (Base64Url.TryDecodeFromChars throws on a
    /// bad character or a final quantum that cannot be, and a tampered token must not become a 500).
    /// </summary>
    private static bool TryDecode(ReadOnlySpan<char> text, Span<byte> into, out int written)
    {
        written = 0;
        return Base64Url.IsValid(text, out var length) && length <= into.Length
            && Base64Url.TryDecodeFromChars(text, into, out written);
    }
}
