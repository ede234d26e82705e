using System.Buffers.Binary;
using System.Security.Cryptography;

namespace Slots.Admission;

/// <summary>
/// The pre-queue's order after the opening: a keyed pseudo-random permutation of 1..n, drawn by
/// choosing the key with a cryptographic RNG at the moment the pre-queue is sealed.
/// </summary>
/// <remarks>
/// Why a keyed permutation and not a shuffled list: every API instance computes a ticket's
/// position from the opening's key and size alone, so sealing a pre-queue of a million people is
/// one row written, not a million, and a status poll needs no lookup. The permutation is a
/// balanced Feistel network with HMAC-SHA256 as its round function over the smallest even power
/// of two that holds n, walked in cycles until it lands inside 1..n (format-preserving
/// encryption): a bijection for any key, unpredictable without it, and the key never leaves the
/// database and the instances.
/// </remarks>
public static class PreQueueShuffle
{
    private const int Rounds = 8;

    /// <summary>A fresh shuffle key from the cryptographic RNG.</summary>
    public static byte[] NewKey() => RandomNumberGenerator.GetBytes(32);

    /// <summary>The position (1..n) of pre-queue ticket <paramref name="ticket"/> (1..n).</summary>
    public static long Position(ReadOnlySpan<byte> key, long n, long ticket)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(ticket, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(ticket, n);
        var bits = 2;
        while (bits < 62 && (1L << bits) < n)
        {
            bits += 2;
        }
        var x = (ulong)(ticket - 1);
        do
        {
            x = Encrypt(key, (ulong)n, bits / 2, x);
        }
        while (x >= (ulong)n);
        return (long)x + 1;
    }

    private static ulong Encrypt(ReadOnlySpan<byte> key, ulong n, int half, ulong x)
    {
        var mask = (1UL << half) - 1;
        var left = x >> half;
        var right = x & mask;
        Span<byte> input = stackalloc byte[17];
        Span<byte> mac = stackalloc byte[32];
        BinaryPrimitives.WriteUInt64LittleEndian(input[9..], n);
        for (var round = 0; round < Rounds; round++)
        {
            input[0] = (byte)round;
            BinaryPrimitives.WriteUInt64LittleEndian(input[1..], right);
            HMACSHA256.HashData(key, input, mac);
            var f = BinaryPrimitives.ReadUInt64LittleEndian(mac) & mask;
            (left, right) = (right, left ^ f);
        }
        return (left << half) | right;
    }
}
