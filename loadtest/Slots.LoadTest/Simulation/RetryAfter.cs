using System.Globalization;

namespace Slots.LoadTest.Simulation;

/// <summary>
/// The wait a server asks for (RFC 9110 Retry-After: delay-seconds or an HTTP-date), plus the
/// random extra that keeps a crowd told the same number from coming back in one burst.
/// </summary>
public static class RetryAfter
{
    /// <summary>The delay in the header, or null when it is absent or unreadable. Dates in the past are zero.</summary>
    public static TimeSpan? Parse(string? value, DateTimeOffset now)
    {
        if (string.IsNullOrWhiteSpace(value))
        {
            return null;
        }
        var text = value.Trim();
        if (text.All(char.IsAsciiDigit))
        {
            return int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out var seconds)
                ? TimeSpan.FromSeconds(seconds)
                : null;
        }
        // "r" is the IMF-fixdate form (Sun, 06 Nov 1994 08:49:37 GMT) HTTP servers send.
        if (DateTimeOffset.TryParseExact(text, "r", CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var at))
        {
            return at <= now ? TimeSpan.Zero : at - now;
        }
        return null;
    }

    /// <summary>
    /// What to wait before the next attempt: the server's delay when it gave one, else an
    /// exponential back-off from <paramref name="baseBackoff"/> capped at <paramref name="maxBackoff"/>;
    /// plus jitter in [0, <paramref name="maxJitter"/>) drawn from <paramref name="random"/>.
    /// </summary>
    public static TimeSpan Delay(int attempt, TimeSpan? serverDelay, TimeSpan baseBackoff, TimeSpan maxBackoff, TimeSpan maxJitter, Random random)
    {
        ArgumentOutOfRangeException.ThrowIfLessThan(attempt, 1);
        var backoff = serverDelay ?? TimeSpan.FromTicks(Math.Min(maxBackoff.Ticks, baseBackoff.Ticks << Math.Min(attempt - 1, 20)));
        return backoff + TimeSpan.FromTicks((long)(random.NextDouble() * maxJitter.Ticks));
    }
}
