using Microsoft.Extensions.Options;

namespace Slots.Reservations;

/// <summary>Slots:WrongProofs: how many wrong phones or national ids one booking code takes before it stops answering.</summary>
public sealed class WrongProofOptions
{
    public const string Section = "Slots:WrongProofs";

    /// <summary>Wrong proofs for one code within <see cref="Window"/> after which the code answers 429.</summary>
    public int Limit { get; set; } = 5;

    public TimeSpan Window { get; set; } = TimeSpan.FromHours(1);

    public bool Valid() => Limit is >= 1 and <= 1000 && Window >= TimeSpan.FromSeconds(1) && Window <= TimeSpan.FromDays(7);
}

/// <summary>
/// The wrong proofs sent for booking codes, in the database so every API instance counts the same:
/// a code is not known to exist, so the rows hold only the code as typed (normalised) and when.
/// </summary>
public interface IWrongProofStore
{
    /// <summary>When the newest wrong proofs for the code since <paramref name="since"/> came, newest first, at most <paramref name="limit"/>.</summary>
    Task<IReadOnlyList<DateTimeOffset>> NewestAsync(string code, DateTimeOffset since, int limit, CancellationToken ct);

    /// <summary>Records one wrong proof for the code, and forgets every one (of any code) older than <paramref name="forgetBefore"/>.</summary>
    Task RecordAsync(string code, DateTimeOffset at, DateTimeOffset forgetBefore, CancellationToken ct);
}

/// <summary>
/// The per-code guessing limit: the look-up, cancel and reschedule of a code that took
/// <see cref="WrongProofOptions.Limit"/> wrong proofs within the window are refused, right proof or
/// not, until the oldest of them leaves it. The per-client limiter alone would let a leaked code be
/// tried from many addresses until the person's phone or national id is found.
/// </summary>
public sealed class WrongProofs(IWrongProofStore store, TimeProvider clock, IOptions<WrongProofOptions> options)
{
    /// <summary>How long the code stays closed; null when it answers.</summary>
    public async Task<TimeSpan?> ClosedForAsync(string code, CancellationToken ct)
    {
        var o = options.Value;
        var now = clock.GetUtcNow();
        var newest = await store.NewestAsync(code, now - o.Window, o.Limit, ct);
        if (newest.Count < o.Limit)
        {
            return null;
        }
        // Open again once fewer than Limit remain in the window: when the Limit-th newest leaves it.
        var wait = newest[o.Limit - 1] + o.Window - now;
        return wait > TimeSpan.Zero ? wait : TimeSpan.FromSeconds(1);
    }

    public Task RecordAsync(string code, CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        return store.RecordAsync(code, now, now - options.Value.Window, ct);
    }
}
