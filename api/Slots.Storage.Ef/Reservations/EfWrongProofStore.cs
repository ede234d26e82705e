using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;

namespace Slots.Storage.Ef.Reservations;

/// <summary>
/// Wrong proofs per booking code on SQLite and PostgreSQL (table wrong_proofs): one row per wrong
/// proof, inserted, never updated, so instances racing on one code need no lock; counted through
/// the (code, at) index and forgotten through the (at) one.
/// </summary>
public sealed class EfWrongProofStore(IServiceScopeFactory scopes) : IWrongProofStore
{
    public async Task<IReadOnlyList<DateTimeOffset>> NewestAsync(string code, DateTimeOffset since, int limit, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var from = since.ToUnixTimeSeconds();
        var times = await db.WrongProofs.AsNoTracking()
            .Where(w => w.Code == code && w.At > from)
            .OrderByDescending(w => w.At)
            .Take(limit)
            .Select(w => w.At)
            .ToListAsync(ct);
        return [.. times.Select(DateTimeOffset.FromUnixTimeSeconds)];
    }

    public async Task RecordAsync(string code, DateTimeOffset at, DateTimeOffset forgetBefore, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        db.WrongProofs.Add(new WrongProofRecord { Code = code, At = at.ToUnixTimeSeconds() });
        await db.SaveChangesAsync(ct);
        // Only a wrong proof pays for the forgetting: the table holds at most one window of them.
        var cutoff = forgetBefore.ToUnixTimeSeconds();
        await db.WrongProofs.Where(w => w.At < cutoff).ExecuteDeleteAsync(ct);
    }
}
