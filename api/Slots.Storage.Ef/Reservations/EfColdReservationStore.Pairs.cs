using Microsoft.EntityFrameworkCore;
using Slots.Reservations;

namespace Slots.Storage.Ef;

/// <summary>
/// A pair booked on the disk days: the second dose comes after the first, so it is on disk too. Its
/// candidate slots are locked in day order, after the first dose's slot (an earlier day): every
/// transaction that seats doses locks slots in the order of their days, so two pairs cannot deadlock.
/// </summary>
public sealed partial class EfColdReservationStore
{
    /// <summary>The second dose seated in the booking's transaction and linked to the first; null when no slot in the range has a free seat.</summary>
    private static async Task<(SecondDose Dose, long EndsAt)?> SeatSecondAsync(SlotsDbContext db, ColdLocks locks, ReserveCommand c, long now,
        CancellationToken ct)
    {
        var range = c.Second!;
        var days = await db.Slots.AsNoTracking()
            .Where(s => s.PlaceId == c.Slot.PlaceId && s.ServiceId == c.Slot.ServiceId && s.StartMinute == range.StartMinute
                && s.Day >= range.From && s.Day <= range.To && s.ClosedBy == null && s.StartsAt > now)
            .OrderBy(s => s.Day)
            .Select(s => s.Day)
            .ToListAsync(ct);
        foreach (var day in days)
        {
            var key = c.Slot with { Day = day, StartMinute = range.StartMinute };
            if (await locks.SlotAsync(key, ct) is not { } slot)
            {
                continue;
            }
            var taken = await TakenSeatsAsync(db, key, ct);
            var seat = Enumerable.Range(1, slot.Capacity).FirstOrDefault(n => !taken.Contains(n));
            if (seat == 0)
            {
                continue;
            }
            db.Reservations.Add(Booked(c, c.SecondCode!, key, seat, now));
            db.DosePairs.Add(new DosePairRecord { FirstCode = c.NewCode, SecondCode = c.SecondCode!, ServiceId = key.ServiceId, CreatedAt = now });
            var endsAt = slot.StartsAt + (slot.Minutes * 60L);
            // The person is held until the second dose ends: the one-booking rule counts the pair once.
            await db.ActivePersons.Where(p => p.PersonHash == c.PersonHash && p.Code == c.NewCode)
                .ExecuteUpdateAsync(s => s.SetProperty(p => p.EndsAt, endsAt), ct);
            return (new SecondDose(c.SecondCode!, day, key.StartMinute, slot.Minutes), endsAt);
        }
        return null;
    }
}
