using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;

namespace Slots.Storage.Ef.Reservations;

/// <summary>The pairs' links on every backend, read through the shared EF model (one key probe each).</summary>
public sealed class EfDosePairStore(IServiceScopeFactory scopes) : IDosePairStore
{
    public async Task<string?> SecondOfAsync(string firstCode, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        return await db.DosePairs.AsNoTracking().Where(p => p.FirstCode == firstCode).Select(p => p.SecondCode).SingleOrDefaultAsync(ct);
    }

    public async Task<string?> FirstOfAsync(string secondCode, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        return await db.DosePairs.AsNoTracking().Where(p => p.SecondCode == secondCode).Select(p => p.FirstCode).SingleOrDefaultAsync(ct);
    }

    public async Task<IReadOnlyDictionary<string, string>> FirstsAsync(IReadOnlyCollection<string> codes, CancellationToken ct)
    {
        if (codes.Count == 0)
        {
            return new Dictionary<string, string>();
        }
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        return await db.DosePairs.AsNoTracking().Where(p => codes.Contains(p.SecondCode))
            .ToDictionaryAsync(p => p.SecondCode, p => p.FirstCode, StringComparer.Ordinal, ct);
    }

    public async Task<IReadOnlyDictionary<string, string>> OtherHalvesAsync(IReadOnlyCollection<string> codes, CancellationToken ct)
    {
        if (codes.Count == 0)
        {
            return new Dictionary<string, string>();
        }
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var links = await db.DosePairs.AsNoTracking().Where(p => codes.Contains(p.FirstCode) || codes.Contains(p.SecondCode)).ToListAsync(ct);
        var others = new Dictionary<string, string>(StringComparer.Ordinal);
        foreach (var p in links)
        {
            others[p.FirstCode] = p.SecondCode;
            others[p.SecondCode] = p.FirstCode;
        }
        return others.Where(o => codes.Contains(o.Key)).ToDictionary(o => o.Key, o => o.Value, StringComparer.Ordinal);
    }

    public async Task<IReadOnlyDictionary<string, (DateOnly Day, int StartMinute)>> SecondsAsync(IReadOnlyCollection<string> firstCodes,
        CancellationToken ct)
    {
        if (firstCodes.Count == 0)
        {
            return new Dictionary<string, (DateOnly, int)>();
        }
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var links = await db.DosePairs.AsNoTracking().Where(p => firstCodes.Contains(p.FirstCode)).ToListAsync(ct);
        if (links.Count == 0)
        {
            return new Dictionary<string, (DateOnly, int)>();
        }
        var seconds = links.Select(p => p.SecondCode).ToList();
        // Hot or on disk: a second dose's row is in one of the two (the disk copy of a hot row is older).
        var hot = await db.HotReservations.AsNoTracking().Where(r => seconds.Contains(r.Code))
            .Select(r => new { r.Code, r.Day, r.StartMinute }).ToListAsync(ct);
        var disk = await db.Reservations.AsNoTracking().Where(r => seconds.Contains(r.Code) && r.CancelledAt == null)
            .Select(r => new { r.Code, r.Day, r.StartMinute }).ToListAsync(ct);
        var where = disk.ToDictionary(r => r.Code, r => (r.Day, r.StartMinute), StringComparer.Ordinal);
        foreach (var r in hot)
        {
            where[r.Code] = (r.Day, r.StartMinute);
        }
        return links.Where(p => where.ContainsKey(p.SecondCode)).ToDictionary(p => p.FirstCode, p => where[p.SecondCode], StringComparer.Ordinal);
    }
}
