using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.DependencyInjection;
using Slots.Catalogue;
using Slots.Reservations;

namespace Slots.Storage.Ef;

/// <summary>The cold path's cancel and reschedule: each one transaction under the place's lock, with its SMS and change record.</summary>
public sealed partial class EfColdReservationStore
{
    public async Task<Cold<CancelStatus>> CancelAsync(CancelCommand c, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var (db, loader, locks) = Resolve(scope);
        var now = c.Now.ToUnixTimeSeconds();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var seen = await ActiveAsync(db, c.Code, ct);
        if (seen is null)
        {
            return new(ColdRoute.Done, CancelStatus.NotFound);
        }
        if (seen.Day < await loader.LockHorizonAsync(seen.PlaceId, ct, shared: true))
        {
            return new(ColdRoute.NowHot, CancelStatus.NotFound);
        }
        var held = await locks.ReservationAsync(c.Code, ct);
        if (held is null || !Owns(held, c.Proof))
        {
            return new(ColdRoute.Done, CancelStatus.NotFound); // a code without its owner's phone or id reveals nothing
        }
        if (await StartsAtAsync(db, held, ct) <= now)
        {
            return new(ColdRoute.Done, CancelStatus.Started);
        }
        await db.Reservations.Where(r => r.Code == c.Code)
            .ExecuteUpdateAsync(s => s.SetProperty(r => r.CancelledAt, now).SetProperty(r => r.UpdatedAt, now), ct);
        await db.ActivePersons.Where(p => p.PersonHash == held.PersonHash && p.Code == c.Code).ExecuteDeleteAsync(ct);
        db.Outbox.Add(Announcement(ChangeKind.Cancelled, held.Code, held.Phone, held.Language, Key(held), now));
        await db.SaveChangesAsync(ct);
        await tx.CommitAsync(ct);
        return new(ColdRoute.Done, CancelStatus.Cancelled);
    }

    public async Task<bool> WasCancelledAsync(CancelCommand c, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var db = scope.ServiceProvider.GetRequiredService<SlotsDbContext>();
        string? phone = c.Proof.Phone, person = c.Proof.PersonHash;
        // Not flushed yet: the change record; flushed: the disk row with its cancellation time.
        return await db.Changes.AsNoTracking()
                .AnyAsync(x => x.Code == c.Code && x.Kind == (int)ChangeKind.Cancelled && (x.Phone == phone || x.PersonHash == person), ct)
            || await db.Reservations.AsNoTracking()
                .AnyAsync(r => r.Code == c.Code && r.CancelledAt != null && (r.Phone == phone || r.PersonHash == person), ct);
    }

    /// <summary>Moves a cold reservation to another cold slot. A move to a hot day answers AcrossWindow.</summary>
    public async Task<Cold<RescheduleStatus>> RescheduleAsync(RescheduleCommand c, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        var (db, loader, locks) = Resolve(scope);
        var now = c.Now.ToUnixTimeSeconds();
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var seen = await ActiveAsync(db, c.Code, ct);
        if (seen is null)
        {
            return new(ColdRoute.Done, RescheduleStatus.NotFound);
        }
        // Both places' horizons, locked in id order so two moves between the same places cannot deadlock.
        var horizons = new Dictionary<int, DateOnly>();
        foreach (var placeId in new[] { seen.PlaceId, c.Target.PlaceId }.Distinct().Order())
        {
            horizons[placeId] = await loader.LockHorizonAsync(placeId, ct, shared: true);
        }
        if (seen.Day < horizons[seen.PlaceId])
        {
            return new(ColdRoute.NowHot, RescheduleStatus.NotFound);
        }
        var held = await locks.ReservationAsync(c.Code, ct);
        if (held is null || !Owns(held, c.Proof))
        {
            return new(ColdRoute.Done, RescheduleStatus.NotFound);
        }
        if (await StartsAtAsync(db, held, ct) <= now)
        {
            return new(ColdRoute.Done, RescheduleStatus.Started);
        }
        // A booking moves within its service: the seat taken is one of its service's.
        var target = c.Target with { ServiceId = held.ServiceId };
        if (Key(held) == target)
        {
            return new(ColdRoute.Done, RescheduleStatus.Rescheduled); // a retried reschedule that already happened
        }
        if (target.Day < horizons[target.PlaceId])
        {
            return new(ColdRoute.AcrossWindow, RescheduleStatus.UnknownSlot);
        }
        var slot = await locks.SlotAsync(target, ct);
        if (slot is null || slot.StartsAt <= now)
        {
            return new(ColdRoute.Done, slot is null ? RescheduleStatus.UnknownSlot : RescheduleStatus.SlotStarted);
        }
        var taken = await TakenSeatsAsync(db, target, ct);
        var seat = Enumerable.Range(1, slot.Capacity).FirstOrDefault(n => !taken.Contains(n));
        if (seat == 0)
        {
            return new(ColdRoute.Done, RescheduleStatus.SlotFull);
        }
        await db.Reservations.Where(r => r.Code == c.Code).ExecuteUpdateAsync(s => s
            .SetProperty(r => r.PlaceId, target.PlaceId).SetProperty(r => r.Day, target.Day)
            .SetProperty(r => r.StartMinute, target.StartMinute).SetProperty(r => r.SeatNo, seat)
            .SetProperty(r => r.UpdatedAt, now), ct);
        var endsAt = slot.StartsAt + (slot.Minutes * 60L);
        // A pair's second dose moves the person's row, which its first code holds.
        var holder = await db.DosePairs.Where(p => p.SecondCode == c.Code).Select(p => p.FirstCode).FirstOrDefaultAsync(ct) ?? c.Code;
        await db.ActivePersons.Where(p => p.PersonHash == held.PersonHash && p.Code == holder).ExecuteUpdateAsync(s => s.SetProperty(p => p.EndsAt, endsAt), ct);
        db.Outbox.Add(Announcement(ChangeKind.Rescheduled, held.Code, held.Phone, held.Language, target, now));
        await db.SaveChangesAsync(ct);
        await tx.CommitAsync(ct);
        return new(ColdRoute.Done, RescheduleStatus.Rescheduled);
    }

    /// <summary>The outbox row of a change to a disk booking (its SMS).</summary>
    private static OutboxMessage Announcement(ChangeKind kind, string code, string phone, string language, SlotKey slot, long now) => new()
    {
        Kind = (int)kind,
        Code = code,
        Phone = phone,
        Language = language,
        PlaceId = slot.PlaceId,
        Day = slot.Day,
        StartMinute = slot.StartMinute,
        CreatedAt = now,
    };
}
