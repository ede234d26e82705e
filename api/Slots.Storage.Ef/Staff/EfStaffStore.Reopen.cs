using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Staff;

namespace Slots.Storage.Ef.Staff;

/// <summary>
/// A block opened again (a place reopened) on SQLite and PostgreSQL, in one transaction under the
/// place's row held shared, as the block's open and batches take it: the window cannot move the day
/// between hot and disk meanwhile, and a batch of the same block (which reads reopened_at) either ran
/// before or cancels nothing more. SQL Server overrides it with its proc (sql/161).
/// </summary>
public abstract partial class EfStaffStore
{
    public async Task<IReadOnlyList<long>> StandingBlocksAsync(int placeId, DateOnly fromDay, bool closesPlace, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        return await db.SiteCancels.AsNoTracking()
            .Where(b => b.PlaceId == placeId && b.Day >= fromDay && b.ReopenedAt == null && (!closesPlace || b.ClosesPlace))
            .OrderBy(b => b.Id).Select(b => b.Id).ToListAsync(ct);
    }

    public async Task<IReadOnlyList<BlockCancel>> StandingSiteBlocksAsync(int placeId, DateOnly fromDay, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var rows = await db.SiteCancels.AsNoTracking()
            .Where(b => b.PlaceId == placeId && b.Day >= fromDay && b.ReopenedAt == null && !b.ClosesPlace)
            .OrderBy(b => b.Day).ThenBy(b => b.FromMinute).ThenBy(b => b.Id)
            .ToListAsync(ct);
        return [.. rows.Select(Block)];
    }

    public virtual async Task<bool> ReopenBlockCancelAsync(long blockId, string actor, DateTimeOffset now, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var loader = scope.ServiceProvider.GetRequiredService<HotWindowLoader>();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var block = await db.SiteCancels.AsNoTracking().SingleOrDefaultAsync(b => b.Id == blockId, ct);
        if (block is null)
        {
            return false;
        }
        var horizon = await loader.LockHorizonAsync(block.PlaceId, ct, shared: true);
        var at = now.ToUnixTimeSeconds();
        var reopened = await db.Database.ExecuteSqlAsync($"""
            UPDATE site_cancels SET reopened_at = {at}, reopened_by = {actor}, finished_at = COALESCE(finished_at, {at}), progress_at = {at}
            WHERE id = {blockId} AND reopened_at IS NULL
            """, ct);
        if (reopened == 0)
        {
            await tx.CommitAsync(ct);
            return false;
        }
        // A slot that another standing block also covers stays closed, now by that block.
        await db.Database.ExecuteSqlAsync($"""
            UPDATE slots SET closed_by = (
                SELECT MIN(b.id) FROM site_cancels b
                WHERE b.place_id = slots.place_id AND b.day = slots.day AND b.reopened_at IS NULL
                  AND slots.start_minute >= b.from_minute AND slots.start_minute < b.to_minute)
            WHERE place_id = {block.PlaceId} AND day = {block.Day} AND closed_by = {blockId}
            """, ct);
        if (block.Day < horizon)
        {
            // The seats the open slots lack come back free: those of kept bookings are still there.
            await loader.LoadSeatsAsync(block.PlaceId, block.Day, block.Day, ct);
        }
        await tx.CommitAsync(ct);
        return true;
    }
}
