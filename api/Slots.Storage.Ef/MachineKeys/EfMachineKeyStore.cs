using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.MachineKeys;

namespace Slots.Storage.Ef.MachineKeys;

/// <summary>
/// Machine keys on every backend (table machine_keys): the same code on SQLite, PostgreSQL and SQL
/// Server. A handful of rows read whole; the key check holds the working ones in memory.
/// </summary>
public sealed class EfMachineKeyStore(IServiceScopeFactory scopes) : IMachineKeyStore
{
    public async Task<MachineKey> AddAsync(NewMachineKey key, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var row = new MachineKeyRecord
        {
            Name = key.Name,
            Role = key.Role,
            Hash = key.Hash,
            CreatedAt = key.CreatedAt.ToUnixTimeSeconds(),
            CreatedBy = key.CreatedBy,
            ExpiresAt = key.ExpiresAt.ToUnixTimeSeconds(),
        };
        db.MachineKeys.Add(row);
        await db.SaveChangesAsync(ct);
        return ToKey(row);
    }

    public async Task<IReadOnlyList<MachineKey>> ListAsync(CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var rows = await db.MachineKeys.AsNoTracking().OrderByDescending(k => k.Id).ToListAsync(ct);
        return [.. rows.Select(ToKey)];
    }

    public async Task<IReadOnlyList<MachineKey>> WorkingAsync(DateTimeOffset now, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var at = now.ToUnixTimeSeconds();
        var rows = await db.MachineKeys.AsNoTracking().Where(k => k.RevokedAt == null && k.ExpiresAt > at).ToListAsync(ct);
        return [.. rows.Select(ToKey)];
    }

    public async Task<RevokeOutcome> RevokeAsync(long id, DateTimeOffset at, string by, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var when = at.ToUnixTimeSeconds();
        // Guarded by revoked_at IS NULL: of two admins revoking at once, one sets the time and name.
        var changed = await db.MachineKeys.Where(k => k.Id == id && k.RevokedAt == null)
            .ExecuteUpdateAsync(s => s.SetProperty(k => k.RevokedAt, when).SetProperty(k => k.RevokedBy, by), ct);
        if (changed > 0)
        {
            return RevokeOutcome.Revoked;
        }
        return await db.MachineKeys.AnyAsync(k => k.Id == id, ct) ? RevokeOutcome.AlreadyRevoked : RevokeOutcome.NotFound;
    }

    private static MachineKey ToKey(MachineKeyRecord row) => new(
        row.Id, row.Name, row.Role, row.Hash,
        DateTimeOffset.FromUnixTimeSeconds(row.CreatedAt), row.CreatedBy,
        DateTimeOffset.FromUnixTimeSeconds(row.ExpiresAt),
        row.RevokedAt is { } revoked ? DateTimeOffset.FromUnixTimeSeconds(revoked) : null, row.RevokedBy);
}
