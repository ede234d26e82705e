using Microsoft.Extensions.Options;

namespace Slots.Eligibility;

/// <summary>A batch of invitation codes as admins see it: how many it holds and how many are spent, never the codes.</summary>
public sealed record InvitationBatch(int Id, int ServiceId, string Label, int Size, int Spent, long CreatedAt, string CreatedBy,
    long? RevokedAt, string? RevokedBy);

/// <summary>Where invitation batches are kept; the codes only as their keyed hashes.</summary>
public interface IInvitationStore
{
    /// <summary>Writes the batch and one row per hash in one transaction; the new batch.</summary>
    Task<InvitationBatch> AddBatchAsync(int serviceId, string label, IReadOnlyCollection<string> hashes, string by, long now, CancellationToken ct);

    /// <summary>Every batch, newest first; only those of one service when <paramref name="serviceId"/> is given.</summary>
    Task<IReadOnlyList<InvitationBatch>> BatchesAsync(int? serviceId, CancellationToken ct);

    /// <summary>
    /// Revokes the batch and each of its codes in one transaction, so no booking spends one from then on
    /// (bookings already made stay). Null when there is no such batch; a batch revoked before keeps its first revocation.
    /// </summary>
    Task<InvitationBatch?> RevokeAsync(int batchId, string by, long now, CancellationToken ct);
}

/// <summary>A new batch and its codes as people will type them: the only time the plain codes exist.</summary>
public sealed record IssuedBatch(InvitationBatch Batch, IReadOnlyList<string> Codes);

/// <summary>Issues and revokes batches of invitation codes (issue 41): codes drawn here, only their hashes stored.</summary>
public sealed class InvitationBatches(IInvitationStore store, InvitationKey key, IOptions<InvitationOptions> options, TimeProvider clock)
{
    public int MaxSize => options.Value.MaxBatchSize;

    /// <summary>Draws <paramref name="size"/> distinct codes and stores their hashes; the caller hands the codes out once.</summary>
    public async Task<IssuedBatch> IssueAsync(int serviceId, string label, int size, string by, CancellationToken ct)
    {
        if (!key.Configured)
        {
            throw new InvalidOperationException($"No invitation key is configured ({InvitationOptions.Section}:HmacSecret).");
        }
        ArgumentOutOfRangeException.ThrowIfLessThan(size, 1);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(size, MaxSize);
        var codes = new List<string>(size);
        var hashes = new HashSet<string>(size, StringComparer.Ordinal);
        while (codes.Count < size)
        {
            var code = InvitationCode.New();
            if (hashes.Add(key.Hash(InvitationCode.Normalize(code)!)!))
            {
                codes.Add(code);
            }
        }
        var batch = await store.AddBatchAsync(serviceId, label, hashes, by, clock.GetUtcNow().ToUnixTimeSeconds(), ct);
        return new IssuedBatch(batch, codes);
    }

    public Task<IReadOnlyList<InvitationBatch>> ListAsync(int? serviceId, CancellationToken ct) => store.BatchesAsync(serviceId, ct);

    public Task<InvitationBatch?> RevokeAsync(int batchId, string by, CancellationToken ct) =>
        store.RevokeAsync(batchId, by, clock.GetUtcNow().ToUnixTimeSeconds(), ct);
}
