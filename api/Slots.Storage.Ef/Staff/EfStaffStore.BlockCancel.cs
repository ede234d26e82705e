using System.Globalization;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;
using Slots.Staff;

namespace Slots.Storage.Ef.Staff;

/// <summary>
/// A site's block cancel on SQLite and PostgreSQL, set-based: each batch is a handful of
/// statements over the block's rows, in one transaction. The batch first writes an attendance row
/// (state 5, cancelled by the site) for each booking it takes; those rows pick the bookings every
/// later statement of the batch works on, and their primary key is what makes a booking cancelled
/// and told once, however often a batch is retried or resumed. On PostgreSQL the batch locks the
/// bookings it takes (a racing citizen's cancel or check-in waits, or wins first and is skipped) and
/// holds the place's row shared, so the window cannot move the day between hot and disk meanwhile.
/// </summary>
public abstract partial class EfStaffStore
{
    private const int CancelledBySite = (int)RosterState.CancelledBySite;

    public virtual async Task<OpenedBlock> OpenBlockCancelAsync(BlockCancelRequest request, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        await scope.ServiceProvider.GetRequiredService<HotWindowLoader>().LockHorizonAsync(request.PlaceId, ct, shared: true);
        var now = request.Now.ToUnixTimeSeconds();
        var created = await db.Database.ExecuteSqlAsync($"""
            INSERT INTO site_cancels (place_id, day, from_minute, to_minute, reason, actor, created_at, progress_at, cancelled, kept,
                                      keep_bookings, closes_place)
            VALUES ({request.PlaceId}, {request.Day}, {request.FromMinute}, {request.ToMinute}, {request.Reason}, {request.Actor}, {now}, {now}, 0, 0,
                    {request.KeepBookings}, {request.ClosesPlace})
            ON CONFLICT (place_id, day, from_minute, to_minute) WHERE reopened_at IS NULL DO NOTHING
            """, ct) == 1;
        var block = await db.SiteCancels.AsNoTracking().SingleAsync(b => b.PlaceId == request.PlaceId && b.Day == request.Day
            && b.FromMinute == request.FromMinute && b.ToMinute == request.ToMinute && b.ReopenedAt == null, ct);
        if (created)
        {
            // Closed at once: no new booking lands in the block from here on, hot day or disk day.
            await db.Database.ExecuteSqlAsync($"""
                UPDATE slots SET closed_by = {block.Id}
                WHERE place_id = {block.PlaceId} AND day = {block.Day} AND start_minute >= {block.FromMinute} AND start_minute < {block.ToMinute}
                  AND closed_by IS NULL
                """, ct);
            await DropFreeSeatsAsync(db, block, ct);
            db.StaffAudit.Add(new StaffAuditRecord
            {
                At = now,
                Actor = request.Actor,
                PlaceId = request.PlaceId,
                Action = AuditActions.BlockCancel,
                Target = BlockTarget(block),
                Reason = request.Reason,
            });
            await db.SaveChangesAsync(ct);
        }
        await tx.CommitAsync(ct);
        return new OpenedBlock(Block(block), created);
    }

    public virtual async Task<int> CancelBlockBatchAsync(long blockId, DateTimeOffset now, int batch, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var locking = scope.ServiceProvider.GetRequiredService<EfDialect>().LocksRows;
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var block = await db.SiteCancels.AsNoTracking().SingleAsync(b => b.Id == blockId, ct);
        // A block that keeps its bookings (a place closed keeping them) cancels none; nor does one opened again.
        if (block.FinishedAt is not null || block.KeepBookings || block.ReopenedAt is not null)
        {
            return 0;
        }
        var horizon = await scope.ServiceProvider.GetRequiredService<HotWindowLoader>().LockHorizonAsync(block.PlaceId, ct, shared: true);
        var at = now.ToUnixTimeSeconds();
        var taken = block.Day < horizon
            ? await CancelHotAsync(db, block, at, batch, locking, ct)
            : await CancelColdAsync(db, block, at, batch, locking, ct);
        await DropFreeSeatsAsync(db, block, ct);
        await db.SiteCancels.Where(b => b.Id == blockId)
            .ExecuteUpdateAsync(u => u.SetProperty(b => b.Cancelled, b => b.Cancelled + taken).SetProperty(b => b.ProgressAt, at), ct);
        await tx.CommitAsync(ct);
        return taken;
    }

    public virtual async Task<BlockCancel> FinishBlockCancelAsync(long blockId, DateTimeOffset now, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var block = await db.SiteCancels.AsNoTracking().SingleAsync(b => b.Id == blockId, ct);
        if (block.FinishedAt is null)
        {
            var horizon = await scope.ServiceProvider.GetRequiredService<HotWindowLoader>().LockHorizonAsync(block.PlaceId, ct, shared: true);
            var kept = block.Day < horizon
                ? await (from s in db.HotSeats
                         where s.PlaceId == block.PlaceId && s.Day == block.Day && s.StartMinute >= block.FromMinute && s.StartMinute < block.ToMinute
                         join r in db.HotReservations on s.Code equals r.Code
                         select r).CountAsync(ct)
                : await db.Reservations.CountAsync(r => r.PlaceId == block.PlaceId && r.Day == block.Day
                    && r.StartMinute >= block.FromMinute && r.StartMinute < block.ToMinute && r.CancelledAt == null, ct);
            await DropFreeSeatsAsync(db, block, ct);
            var at = now.ToUnixTimeSeconds();
            await db.SiteCancels.Where(b => b.Id == blockId)
                .ExecuteUpdateAsync(u => u.SetProperty(b => b.Kept, kept).SetProperty(b => b.FinishedAt, at).SetProperty(b => b.ProgressAt, at), ct);
            block.Kept = kept;
            block.FinishedAt = at;
        }
        await tx.CommitAsync(ct);
        return Block(block);
    }

    public async Task<BlockCancel?> BlockCancelAsync(long blockId, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        return await db.SiteCancels.AsNoTracking().SingleOrDefaultAsync(b => b.Id == blockId, ct) is { } block ? Block(block) : null;
    }

    public async Task<IReadOnlyList<long>> StalledBlockCancelsAsync(DateTimeOffset idleSince, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var before = idleSince.ToUnixTimeSeconds();
        return await db.SiteCancels.AsNoTracking().Where(b => b.FinishedAt == null && b.ProgressAt < before)
            .OrderBy(b => b.Id).Select(b => b.Id).ToListAsync(ct);
    }

    /// <summary>A hot day's batch: the bookings leave the hot rows (seat, holder, row) with a change record for the disk copy.</summary>
    private static async Task<int> CancelHotAsync(SlotsDbContext db, SiteCancelRecord block, long now, int batch, bool locking, CancellationToken ct)
    {
        var lockRows = locking ? "FOR UPDATE OF h" : "";
        var taken = await Run(db, $$"""
            WITH picked AS (
                SELECT h.code, h.place_id, h.day
                FROM hot_seats s JOIN hot_reservations h ON h.code = s.code
                WHERE s.place_id = {0} AND s.day = {1} AND s.start_minute >= {2} AND s.start_minute < {3} AND s.starts_at > {4}
                  AND NOT EXISTS (SELECT 1 FROM attendance a WHERE a.code = h.code)
                ORDER BY h.code LIMIT {5} {{lockRows}})
            INSERT INTO attendance (code, place_id, day, state, at, by)
            SELECT code, place_id, day, {{CancelledBySite}}, {4}, {6} FROM picked WHERE true
            ON CONFLICT (code) DO NOTHING
            """, [block.PlaceId, block.Day, block.FromMinute, block.ToMinute, now, batch, block.Actor], ct);
        if (taken == 0)
        {
            return 0;
        }
        // The rows this batch took: marked cancelled by the site and still hot (earlier batches' rows are gone).
        // Found from the day's door records (attendance's place and day index), then by code.
        var takenRows = $$"""
            FROM attendance a JOIN hot_reservations h ON h.code = a.code
            WHERE a.place_id = {0} AND a.day = {1} AND a.state = {{CancelledBySite}}
            """;
        object[] args = [block.PlaceId, block.Day, now, block.Reason];
        await Run(db, $$"""
            INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at, note)
            SELECT {{(int)ChangeKind.SiteCancelled}}, h.code, h.phone, h.language, h.place_id, h.day, h.start_minute, {2}, {3}
            {{takenRows}}
            """, args, ct);
        await Run(db, $$"""
            INSERT INTO changes (kind, code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language, created_at, at)
            SELECT {{(int)ChangeKind.Cancelled}}, h.code, h.place_id, h.day, h.start_minute, h.service_id, h.seat_no, h.person_hash, h.phone,
                   h.name, h.language, h.created_at, {2}
            {{takenRows}}
            """, args, ct);
        await Run(db, $"""
            DELETE FROM active_persons
            WHERE person_hash IN (SELECT h.person_hash {takenRows}) AND code IN (SELECT h.code {takenRows})
            """, args, ct);
        // The seats go with their bookings: the slot is closed.
        await Run(db, $$"""
            DELETE FROM hot_seats WHERE place_id = {0} AND day = {1} AND code IN (SELECT h.code {{takenRows}})
            """, args, ct);
        await Run(db, $"DELETE FROM hot_reservations WHERE code IN (SELECT h.code {takenRows})", args, ct);
        return taken;
    }

    /// <summary>A disk day's batch: the reservation rows are marked cancelled where they are.</summary>
    private static async Task<int> CancelColdAsync(SlotsDbContext db, SiteCancelRecord block, long now, int batch, bool locking, CancellationToken ct)
    {
        var lockRows = locking ? "FOR UPDATE" : "";
        var taken = await Run(db, $$"""
            WITH picked AS (
                SELECT r.code, r.place_id, r.day FROM reservations r
                WHERE r.place_id = {0} AND r.day = {1} AND r.start_minute >= {2} AND r.start_minute < {3} AND r.cancelled_at IS NULL
                  AND NOT EXISTS (SELECT 1 FROM attendance a WHERE a.code = r.code)
                ORDER BY r.code LIMIT {5} {{lockRows}})
            INSERT INTO attendance (code, place_id, day, state, at, by)
            SELECT code, place_id, day, {{CancelledBySite}}, {4}, {6} FROM picked WHERE true
            ON CONFLICT (code) DO NOTHING
            """, [block.PlaceId, block.Day, block.FromMinute, block.ToMinute, now, batch, block.Actor], ct);
        if (taken == 0)
        {
            return 0;
        }
        var takenRows = $$"""
            FROM reservations r JOIN attendance a ON a.code = r.code AND a.state = {{CancelledBySite}}
            WHERE r.place_id = {0} AND r.day = {1} AND r.cancelled_at IS NULL
            """;
        object[] args = [block.PlaceId, block.Day, now, block.Reason];
        await Run(db, $$"""
            INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at, note)
            SELECT {{(int)ChangeKind.SiteCancelled}}, r.code, r.phone, r.language, r.place_id, r.day, r.start_minute, {2}, {3}
            {{takenRows}}
            """, args, ct);
        await Run(db, $"""
            DELETE FROM active_persons
            WHERE person_hash IN (SELECT r.person_hash {takenRows}) AND code IN (SELECT r.code {takenRows})
            """, args, ct);
        await Run(db, $$"""
            UPDATE reservations SET cancelled_at = {2}, updated_at = {2}
            WHERE code IN (SELECT r.code {{takenRows}})
            """, args, ct);
        return taken;
    }

    /// <summary>
    /// Runs a statement whose text is put together here from constants only (state and kind numbers,
    /// the lock clause); every value comes in as a parameter.
    /// </summary>
    private static Task<int> Run(SlotsDbContext db, string sql, object[] args, CancellationToken ct) =>
        db.Database.ExecuteSqlRawAsync(sql, args, ct);

    /// <summary>
    /// Free seats of the block go: a seat a citizen's cancel gave back while the block ran included,
    /// and one kept for the waiting list's line; a seat held for an open offer stays with its offer.
    /// </summary>
    private static Task<int> DropFreeSeatsAsync(SlotsDbContext db, SiteCancelRecord block, CancellationToken ct) =>
        db.Database.ExecuteSqlAsync($"""
            DELETE FROM hot_seats
            WHERE place_id = {block.PlaceId} AND day = {block.Day} AND start_minute >= {block.FromMinute} AND start_minute < {block.ToMinute}
              AND code IS NULL AND offer_id IS NULL
            """, ct);

    private static string BlockTarget(SiteCancelRecord b) =>
        string.Create(CultureInfo.InvariantCulture, $"{b.Day:yyyy-MM-dd} {b.FromMinute / 60:00}:{b.FromMinute % 60:00}-{b.ToMinute / 60:00}:{b.ToMinute % 60:00}");

    private static BlockCancel Block(SiteCancelRecord b) => new(
        b.Id, b.PlaceId, b.Day, b.FromMinute, b.ToMinute, b.Reason, b.Actor, DateTimeOffset.FromUnixTimeSeconds(b.CreatedAt),
        b.FinishedAt is { } f ? DateTimeOffset.FromUnixTimeSeconds(f) : null, b.Cancelled, b.Kept);
}
