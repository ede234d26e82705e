using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Catalogue;
using Slots.Eligibility;
using Slots.Reservations;

namespace Slots.Storage.Ef;

/// <summary>
/// Reservations for days beyond the hot window (day ≥ the place's stored horizon), through EF Core
/// on the disk tables, with the hot path's outcomes and guarantees:
/// <list type="bullet">
/// <item>the horizon is read under the place's row lock (shared; the window mover takes it
/// exclusively), so a day cannot become hot half-way through a cold write — a call that finds
/// the day hot changes nothing and answers <see cref="ColdRoute.NowHot"/>;</item>
/// <item>one winner per seat: the slot's catalogue row is locked while a seat is picked, and the
/// unique index on active seats (schema 002) refuses a second active row for a seat;</item>
/// <item>one active reservation per person and service: the same active_persons row the hot path uses;</item>
/// <item>idempotency: the same idempotency table, written first, so a repeat replays the answer;</item>
/// <item>the SMS outbox row is written in the same transaction. No change record: the disk row
/// is the reservation, and moving the day in copies it to the hot tables.</item>
/// </list>
/// On SQLite the transaction is BEGIN IMMEDIATE, which serialises all of this with every other writer.
/// </summary>
public sealed partial class EfColdReservationStore(IServiceScopeFactory scopes) : IColdReservationStore
{
    public async Task<Cold<ReserveResult?>> ReserveAsync(ReserveCommand c, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var (db, loader, locks) = Resolve(scope);
        var now = c.Now.ToUnixTimeSeconds();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        if (c.Slot.Day < await loader.LockHorizonAsync(c.Slot.PlaceId, ct, shared: true))
        {
            return new(ColdRoute.NowHot, null);
        }
        // The key first: a repeat (or a racer with the same key) meets the row and replays its answer.
        // A hot booking keeps its key on its reservation where the backend says so (reuse for a disk day).
        if (await locks.HotKeyAsync(c.IdempotencyKey, ct) is { } hot)
        {
            await tx.CommitAsync(ct);
            return Replay(c, hot.Fingerprint, ReservationStatus.Reserved, hot.Code);
        }
        var fresh = await db.Database.ExecuteSqlRawAsync("""
            INSERT INTO idempotency (key, fingerprint, outcome, code, created_at) VALUES ({0}, {1}, 0, NULL, {2})
            ON CONFLICT (key) DO NOTHING
            """, [c.IdempotencyKey, c.Fingerprint, now], ct);
        if (fresh == 0)
        {
            var seen = await db.Idempotency.AsNoTracking().Where(i => i.Key == c.IdempotencyKey).SingleAsync(ct);
            await tx.CommitAsync(ct);
            return Replay(c, seen.Fingerprint, (ReservationStatus)seen.Outcome, seen.Code);
        }

        var result = await TakeSeatAsync(db, locks, c, now, ct);
        if (result.Status is ReservationStatus.NotEligible or ReservationStatus.SecondDoseFull)
        {
            // Refused by the service's rule, or a pair without a second seat: nothing written, not even the
            // key; the person's turn may come, a seat may come back.
            await tx.RollbackAsync(ct);
            return new(ColdRoute.Done, result);
        }
        await db.Idempotency.Where(i => i.Key == c.IdempotencyKey)
            .ExecuteUpdateAsync(s => s.SetProperty(i => i.Outcome, (int)result.Status).SetProperty(i => i.Code, result.Code), ct);
        await tx.CommitAsync(ct);
        return new(ColdRoute.Done, result);
    }

    /// <summary>The first answer under the key again, or null (key reuse) when it came with another request.</summary>
    private static Cold<ReserveResult?> Replay(ReserveCommand c, string fingerprint, ReservationStatus status, string? code) =>
        new(ColdRoute.Done, fingerprint == c.Fingerprint ? new ReserveResult(status, code, Replayed: true) : null);

    private static async Task<ReserveResult> TakeSeatAsync(SlotsDbContext db, ColdLocks locks, ReserveCommand c, long now, CancellationToken ct)
    {
        var slot = await locks.SlotAsync(c.Slot, ct);
        if (slot is null || slot.StartsAt <= now)
        {
            // An active reservation answers first, as on the hot path.
            return await HolderAsync(db, c, now, ct)
                ?? new ReserveResult(slot is null ? ReservationStatus.UnknownSlot : ReservationStatus.SlotStarted, null);
        }
        var decision = await DecideAsync(db, c, now, ct);
        if (decision.Reason is { } reason)
        {
            return new ReserveResult(ReservationStatus.NotEligible, null, Detail: (int)reason);
        }
        for (var attempt = 0; attempt < 3; attempt++)
        {
            // One row per person and service. A stale row (its reservation already over) is simply
            // replaced; a live one is kept.
            var mine = await db.Database.ExecuteSqlRawAsync("""
                INSERT INTO active_persons (person_hash, service_id, code, ends_at) VALUES ({0}, {4}, {1}, {2})
                ON CONFLICT (person_hash, service_id) DO UPDATE SET code = excluded.code, ends_at = excluded.ends_at
                WHERE active_persons.ends_at <= {3}
                """, [c.PersonHash, c.NewCode, slot.StartsAt + (slot.Minutes * 60L), now, c.Slot.ServiceId], ct) == 1;
            if (mine)
            {
                return await ClaimAsync(db, locks, c, slot, decision.SpendsInvitation, now, ct);
            }
            if (await HolderAsync(db, c, now, ct) is { } booked)
            {
                return booked;
            }
            // The holder cancelled between the two statements: try the person row again.
        }
        throw new InvalidOperationException("The person's registry row kept changing under a cold-path reservation.");
    }

    private static async Task<ReserveResult> ClaimAsync(SlotsDbContext db, ColdLocks locks, ReserveCommand c, SlotRow slot, bool spendsInvitation, long now,
        CancellationToken ct)
    {
        var taken = await TakenSeatsAsync(db, c.Slot, ct);
        var seat = Enumerable.Range(1, slot.Capacity).FirstOrDefault(n => !taken.Contains(n));
        if (seat == 0)
        {
            await db.ActivePersons.Where(p => p.PersonHash == c.PersonHash && p.Code == c.NewCode).ExecuteDeleteAsync(ct);
            return new ReserveResult(ReservationStatus.SlotFull, null);
        }
        var second = c.Second is null ? null : await SeatSecondAsync(db, locks, c, now, ct);
        if (c.Second is not null && second is null)
        {
            return new ReserveResult(ReservationStatus.SecondDoseFull, null); // the caller rolls the first seat back
        }
        db.Reservations.Add(Booked(c, c.NewCode, c.Slot, seat, now));
        if (c.Sms)
        {
            db.Outbox.Add(Announcement(ChangeKind.Reserved, c.NewCode, c.Phone, c.Language, c.Slot, now));
        }
        if (c.BookedBy is { } by)
        {
            // Who made it on the person's behalf, in the booking's transaction.
            db.StaffAudit.Add(new StaffAuditRecord
            {
                At = now,
                Actor = by,
                PlaceId = c.Slot.PlaceId,
                Action = Slots.Staff.AuditActions.WalkIn,
                Target = c.NewCode,
                Reason = c.Sms ? "sms" : "no-sms",
            });
        }
        await db.SaveChangesAsync(ct);
        if (spendsInvitation && !await SpendInvitationAsync(db, c, now, ct))
        {
            // The caller rolls the whole booking back: a refusal writes nothing.
            return new ReserveResult(ReservationStatus.NotEligible, null, Detail: (int)NotEligibleReason.InvitationUsed);
        }
        return ReserveResult.Reserved(c.NewCode, slot.Minutes) with { Second = second?.Dose };
    }

    /// <summary>The person's active reservation of the service, hot or cold; its code only for the phone that made it.</summary>
    private static async Task<ReserveResult?> HolderAsync(SlotsDbContext db, ReserveCommand c, long now, CancellationToken ct)
    {
        var holder = (await db.Database.SqlQueryRaw<Holder>("""
            SELECT ap.code AS "Code", COALESCE(hr.phone, r.phone) AS "Phone"
            FROM active_persons ap
            LEFT JOIN hot_reservations hr ON hr.code = ap.code
            LEFT JOIN reservations r ON r.code = ap.code
            WHERE ap.person_hash = {0} AND ap.service_id = {2} AND ap.ends_at > {1}
            """, c.PersonHash, now, c.Slot.ServiceId).ToListAsync(ct)).SingleOrDefault();
        return holder is null ? null : new ReserveResult(ReservationStatus.AlreadyBooked, holder.Phone == c.Phone ? holder.Code : null);
    }

    private sealed record Holder(string Code, string? Phone);

    /// <summary>An active reservation on a cold day (not yet copied to the hot tables); null otherwise.</summary>
    public async Task<ReservationDetails?> FindAsync(string code, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var found = await (
                from r in db.Reservations.AsNoTracking()
                join p in db.Places on r.PlaceId equals p.Id
                join s in db.Slots on new { r.PlaceId, r.Day, r.StartMinute, r.ServiceId } equals new { s.PlaceId, s.Day, s.StartMinute, s.ServiceId }
                where r.Code == code && r.CancelledAt == null && r.Day >= p.HotUntil
                select new { r, s.Minutes })
            .SingleOrDefaultAsync(ct);
        return found is null
            ? null
            : new ReservationDetails(found.r.Code, Key(found.r), found.Minutes, found.r.SeatNo, found.r.Phone, found.r.PersonHash,
                found.r.Name, found.r.Language, DateTimeOffset.FromUnixTimeSeconds(found.r.CreatedAt));
    }

    /// <summary>The place's stored horizon and the slots of every service in [from, to] on and after it, with their free seats.</summary>
    public async Task<(DateOnly Horizon, IReadOnlyList<SlotAvailability> Slots)> AvailabilityAsync(
        int placeId, DateOnly from, DateOnly to, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        var horizon = await db.Places.AsNoTracking().Where(p => p.Id == placeId).Select(p => p.HotUntil).SingleOrDefaultAsync(ct);
        var first = from < horizon ? horizon : from;
        if (first > to)
        {
            return (horizon, []);
        }
        var rows = await db.Slots.AsNoTracking()
            .Where(s => s.PlaceId == placeId && s.Day >= first && s.Day <= to && s.ClosedBy == null)
            .Select(s => new
            {
                s.Day,
                s.StartMinute,
                s.ServiceId,
                s.Minutes,
                s.Capacity,
                s.StartsAt,
                Taken = db.Reservations.Count(r => r.PlaceId == s.PlaceId && r.Day == s.Day && r.StartMinute == s.StartMinute
                    && r.ServiceId == s.ServiceId && r.CancelledAt == null),
            })
            .ToListAsync(ct);
        return (horizon, rows
            .OrderBy(s => s.Day).ThenBy(s => s.StartMinute).ThenBy(s => s.ServiceId)
            .Select(s => new SlotAvailability(new SlotKey(placeId, s.Day, s.StartMinute, s.ServiceId), s.Minutes, s.Capacity, Math.Max(0, s.Capacity - s.Taken), s.StartsAt))
            .ToList());
    }

    /// <summary>The stored horizon of a place (days before it are hot).</summary>
    public async Task<DateOnly> HorizonAsync(int placeId, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        return await db.Places.AsNoTracking().Where(p => p.Id == placeId).Select(p => p.HotUntil).SingleOrDefaultAsync(ct);
    }

    private static Task<ReservationRecord?> ActiveAsync(SlotsDbContext db, string code, CancellationToken ct) =>
        db.Reservations.AsNoTracking().SingleOrDefaultAsync(r => r.Code == code && r.CancelledAt == null, ct);

    private static async Task<HashSet<int>> TakenSeatsAsync(SlotsDbContext db, SlotKey slot, CancellationToken ct) =>
        (await db.Reservations.AsNoTracking()
            .Where(r => r.PlaceId == slot.PlaceId && r.Day == slot.Day && r.StartMinute == slot.StartMinute && r.ServiceId == slot.ServiceId
                && r.CancelledAt == null)
            .Select(r => r.SeatNo)
            .ToListAsync(ct)).ToHashSet();

    private static Task<long> StartsAtAsync(SlotsDbContext db, ReservationRecord r, CancellationToken ct) =>
        db.Slots.AsNoTracking().Where(s => s.PlaceId == r.PlaceId && s.Day == r.Day && s.StartMinute == r.StartMinute && s.ServiceId == r.ServiceId)
            .Select(s => s.StartsAt).SingleAsync(ct);

    private static bool Owns(ReservationRecord r, ContactProof proof) =>
        (proof.Phone is not null && proof.Phone == r.Phone) || (proof.PersonHash is not null && proof.PersonHash == r.PersonHash);

    /// <summary>The disk row of a booking the command made at <paramref name="slot"/> (a pair's second dose under its own code).</summary>
    private static ReservationRecord Booked(ReserveCommand c, string code, SlotKey slot, int seat, long now) => new()
    {
        Code = code,
        PlaceId = slot.PlaceId,
        Day = slot.Day,
        StartMinute = slot.StartMinute,
        ServiceId = slot.ServiceId,
        SeatNo = seat,
        PersonHash = c.PersonHash,
        Phone = c.Phone,
        Name = c.Name,
        Language = c.Language,
        CreatedAt = now,
        UpdatedAt = now,
    };

    private static SlotKey Key(ReservationRecord r) => new(r.PlaceId, r.Day, r.StartMinute, r.ServiceId);

    private static (SlotsDbContext, HotWindowLoader, ColdLocks) Resolve(AsyncServiceScope scope)
    {
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        return (db, scope.ServiceProvider.GetRequiredService<HotWindowLoader>(),
            new ColdLocks(db, scope.ServiceProvider.GetRequiredService<EfDialect>()));
    }

    /// <summary>Row reads that lock on PostgreSQL; on SQLite the BEGIN IMMEDIATE transaction already excludes every other writer.</summary>
    private sealed class ColdLocks(SlotsDbContext db, EfDialect dialect)
    {
        private bool Locking => dialect.LocksRows;

        /// <summary>The key locked as the hot path locks it, and the hot booking made under it where the backend keeps one there.</summary>
        public Task<HotKey?> HotKeyAsync(string key, CancellationToken ct) => dialect.LockHotKeyAsync(db, key, ct);

        public async Task<SlotRow?> SlotAsync(SlotKey slot, CancellationToken ct) =>
            (await db.Slots.FromSqlRaw(Locking ? Sql.SlotForUpdate : Sql.Slot, slot.PlaceId, slot.Day, slot.StartMinute, slot.ServiceId)
                .AsNoTracking().ToListAsync(ct)).SingleOrDefault();

        public async Task<ReservationRecord?> ReservationAsync(string code, CancellationToken ct) =>
            (await db.Reservations.FromSqlRaw(Locking ? Sql.ReservationForUpdate : Sql.Reservation, code)
                .AsNoTracking().ToListAsync(ct)).SingleOrDefault();

        private static class Sql
        {
            // A slot the site closed takes no booking: as far as a booking can tell, it is not there.
            public const string Slot = "SELECT * FROM slots WHERE place_id = {0} AND day = {1} AND start_minute = {2} AND service_id = {3} AND closed_by IS NULL";
            public const string SlotForUpdate = Slot + " FOR UPDATE";
            public const string Reservation = "SELECT * FROM reservations WHERE code = {0} AND cancelled_at IS NULL";
            public const string ReservationForUpdate = Reservation + " FOR UPDATE";
        }
    }
}
