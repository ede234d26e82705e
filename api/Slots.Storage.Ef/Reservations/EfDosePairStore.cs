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
}
