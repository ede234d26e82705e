using Microsoft.EntityFrameworkCore;
using Slots.Catalogue;
using Slots.Reservations;
using Slots.WaitingList;

namespace Slots.Storage.Ef;

public partial class EfCatalogStore
{
    /// <summary>The stand-in code of a seat held for a waiting-list offer: the cut keeps it as it keeps a booking.</summary>
    private const string OfferSeat = "~offer";

    public async Task<CapacityChanged> SetCapacityAsync(CapacityChange change, long now, CancellationToken ct)
    {
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        // Shared, as cold-path writers take it: the window cannot move a day between hot and disk meanwhile.
        var horizon = loader is null
            ? await db.Places.Where(p => p.Id == change.PlaceId).Select(p => p.HotUntil).SingleAsync(ct)
            : await loader.LockHorizonAsync(change.PlaceId, ct, shared: true);
        var slots = await db.Slots.AsNoTracking()
            .Where(s => s.PlaceId == change.PlaceId && s.ServiceId == change.ServiceId && s.Day >= change.From && s.Day <= change.To
                && (change.StartMinute == null || s.StartMinute == change.StartMinute) && s.StartsAt > now && s.Capacity != change.Seats)
            .OrderBy(s => s.Day).ThenBy(s => s.StartMinute)
            .ToListAsync(ct);
        int added = 0, held = 0, removed = 0;
        var blocked = new List<BookingInTheWay>();
        foreach (var slot in slots)
        {
            if (loader is not null)
            {
                await loader.LockSlotAsync(slot.PlaceId, slot.Day, slot.StartMinute, slot.ServiceId, ct);
            }
            var hot = slot.Day < horizon;
            if (change.Seats > slot.Capacity)
            {
                if (hot && slot.ClosedBy is null)
                {
                    var (seats, kept) = await AddHotSeatsAsync(slot, change.Seats, ct);
                    added += seats;
                    held += kept;
                }
                else
                {
                    added += change.Seats - slot.Capacity;
                }
            }
            else
            {
                var plan = CapacityCutPlan.For(hot ? await HotCutSeatsAsync(slot, ct) : await ColdCutSeatsAsync(slot, ct), change.Seats);
                if (plan.Refused)
                {
                    blocked.AddRange(plan.BlockedBy!.Where(c => !c.StartsWith(OfferSeat, StringComparison.Ordinal))
                        .Select(c => new BookingInTheWay(c, slot.Day, slot.StartMinute)));
                    continue;
                }
                if (blocked.Count == 0)
                {
                    removed += hot ? await CutHotAsync(slot, plan, now, ct) : await CutColdAsync(slot, plan, now, ct);
                }
            }
            await db.Slots.Where(s => s.PlaceId == slot.PlaceId && s.Day == slot.Day && s.StartMinute == slot.StartMinute && s.ServiceId == slot.ServiceId)
                .ExecuteUpdateAsync(s => s.SetProperty(x => x.Capacity, change.Seats), ct);
        }
        if (blocked.Count > 0)
        {
            await tx.RollbackAsync(ct);
            return CapacityChanged.Refusal(blocked);
        }
        await tx.CommitAsync(ct);
        return new CapacityChanged(slots.Count, added, held, removed, null);
    }

    /// <summary>
    /// Seats capacity+1..seats of a hot slot. Where someone on the place's line for this service wants
    /// the day, they are kept for the line (hold 1, no offer), as a freed seat is: the waiting-list
    /// job offers them to the first in line before anybody else can book them.
    /// </summary>
    private async Task<(int Added, int Held)> AddHotSeatsAsync(SlotRow slot, int seats, CancellationToken ct)
    {
        var wanted = await db.Waitlist.AnyAsync(w => w.PlaceId == slot.PlaceId && w.ServiceId == slot.ServiceId
            && w.State == (short)EntryState.Waiting && w.FromDay <= slot.Day && w.ToDay >= slot.Day, ct);
        var taken = await db.HotSeats.Where(h => h.PlaceId == slot.PlaceId && h.Day == slot.Day && h.StartMinute == slot.StartMinute
            && h.ServiceId == slot.ServiceId).Select(h => h.SeatNo).ToListAsync(ct);
        var fresh = Enumerable.Range(1, seats).Except(taken).Select(n => new HotSeat
        {
            PlaceId = slot.PlaceId,
            Day = slot.Day,
            StartMinute = slot.StartMinute,
            ServiceId = slot.ServiceId,
            SeatNo = n,
            Minutes = slot.Minutes,
            StartsAt = slot.StartsAt,
            Hold = wanted ? (short)1 : (short)0,
        }).ToList();
        db.HotSeats.AddRange(fresh);
        await db.SaveChangesAsync(ct);
        db.ChangeTracker.Clear();
        return (fresh.Count, wanted ? fresh.Count : 0);
    }

    private async Task<IReadOnlyList<CutSeat>> HotCutSeatsAsync(SlotRow slot, CancellationToken ct) =>
        await db.HotSeats.AsNoTracking()
            .Where(h => h.PlaceId == slot.PlaceId && h.Day == slot.Day && h.StartMinute == slot.StartMinute && h.ServiceId == slot.ServiceId)
            .Select(h => new CutSeat(h.SeatNo, h.Code ?? (h.OfferId == null ? null : OfferSeat + h.OfferId)))
            .ToListAsync(ct);

    /// <summary>A disk day's seats: 1..capacity, each with its active booking's code or free.</summary>
    private async Task<IReadOnlyList<CutSeat>> ColdCutSeatsAsync(SlotRow slot, CancellationToken ct)
    {
        var booked = await db.Reservations.AsNoTracking()
            .Where(r => r.PlaceId == slot.PlaceId && r.Day == slot.Day && r.StartMinute == slot.StartMinute && r.ServiceId == slot.ServiceId
                && r.CancelledAt == null)
            .ToDictionaryAsync(r => r.SeatNo, r => r.Code, ct);
        return Enumerable.Range(1, Math.Max(slot.Capacity, booked.Count == 0 ? 0 : booked.Keys.Max()))
            .Select(n => new CutSeat(n, booked.GetValueOrDefault(n))).ToList();
    }

    /// <summary>
    /// Drops the plan's free hot seats, then moves the kept ones down: the seat row, the booking's hot
    /// row and a change record that carries the new seat to the disk table, or the offer holding it.
    /// </summary>
    private async Task<int> CutHotAsync(SlotRow slot, CapacityCutPlan plan, long now, CancellationToken ct)
    {
        var seats = db.HotSeats.Where(h => h.PlaceId == slot.PlaceId && h.Day == slot.Day && h.StartMinute == slot.StartMinute
            && h.ServiceId == slot.ServiceId);
        var removed = plan.Deletions.Count == 0 ? 0 : await seats.Where(h => plan.Deletions.Contains(h.SeatNo)).ExecuteDeleteAsync(ct);
        foreach (var move in plan.Moves)
        {
            await db.Database.ExecuteSqlRawAsync("""
                UPDATE hot_seats SET seat_no = {4}
                WHERE place_id = {0} AND day = {1} AND start_minute = {2} AND service_id = {3} AND seat_no = {5}
                """, [slot.PlaceId, slot.Day, slot.StartMinute, slot.ServiceId, move.To, move.From], ct);
            if (move.Code is null)
            {
                continue;
            }
            if (move.Code.StartsWith(OfferSeat, StringComparison.Ordinal))
            {
                var offer = long.Parse(move.Code.AsSpan(OfferSeat.Length), System.Globalization.CultureInfo.InvariantCulture);
                await db.WaitlistOffers.Where(o => o.Id == offer).ExecuteUpdateAsync(o => o.SetProperty(x => x.SeatNo, move.To), ct);
                continue;
            }
            await db.HotReservations.Where(r => r.Code == move.Code).ExecuteUpdateAsync(r => r.SetProperty(x => x.SeatNo, move.To), ct);
            var booking = await db.HotReservations.AsNoTracking().SingleAsync(r => r.Code == move.Code, ct);
            db.Changes.Add(new ChangeRecord
            {
                Kind = (int)ChangeKind.Rescheduled,
                Code = booking.Code,
                PlaceId = booking.PlaceId,
                Day = booking.Day,
                StartMinute = booking.StartMinute,
                ServiceId = booking.ServiceId,
                SeatNo = move.To,
                PersonHash = booking.PersonHash,
                Phone = booking.Phone,
                Name = booking.Name,
                Language = booking.Language,
                CreatedAt = booking.CreatedAt,
                At = now,
            });
        }
        await db.SaveChangesAsync(ct);
        db.ChangeTracker.Clear();
        return removed;
    }

    /// <summary>A disk day has no seat rows: the cut moves the bookings on seats past the new count down.</summary>
    private async Task<int> CutColdAsync(SlotRow slot, CapacityCutPlan plan, long now, CancellationToken ct)
    {
        foreach (var move in plan.Moves.Where(m => m.Code is not null))
        {
            await db.Reservations.Where(r => r.Code == move.Code)
                .ExecuteUpdateAsync(r => r.SetProperty(x => x.SeatNo, move.To).SetProperty(x => x.UpdatedAt, now), ct);
        }
        return plan.Deletions.Count;
    }
}
