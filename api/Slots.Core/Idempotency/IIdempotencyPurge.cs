namespace Slots.Idempotency;

/// <summary>
/// Forgets idempotency records: a key is remembered long enough for every retry a client could
/// make (24 h by default), then its row only costs space.
/// </summary>
public interface IIdempotencyPurge
{
    /// <summary>Deletes idempotency records created before the cutoff; returns how many.</summary>
    Task<int> PurgeAsync(DateTimeOffset before, CancellationToken ct);
}
