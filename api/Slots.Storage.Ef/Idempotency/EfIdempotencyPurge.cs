using Microsoft.EntityFrameworkCore;
using Slots.Idempotency;

namespace Slots.Storage.Ef;

/// <summary>The idempotency purge on every backend: one set-based delete.</summary>
public sealed class EfIdempotencyPurge(SlotsDbContext db) : IIdempotencyPurge
{
    public Task<int> PurgeAsync(DateTimeOffset before, CancellationToken ct)
    {
        var cutoff = before.ToUnixTimeSeconds();
        return db.Idempotency.Where(i => i.CreatedAt < cutoff).ExecuteDeleteAsync(ct);
    }
}
