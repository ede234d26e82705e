using Microsoft.EntityFrameworkCore;
using Slots.Storage;

namespace Slots.Stats;

public sealed record DayStats(DateOnly Day, int Slots, long Seats, long FreeSeats, long Reservations);

/// <summary>Per-day totals for admins: the catalogue for slots and seats, the hot tables for what is taken.</summary>
public sealed class StatsReport(SlotsDbContext db)
{
    public async Task<IReadOnlyList<DayStats>> PerDayAsync(DateOnly from, DateOnly to, CancellationToken ct)
    {
        var catalogue = await db.Slots.AsNoTracking()
            .Where(s => s.Day >= from && s.Day <= to)
            .GroupBy(s => s.Day)
            .Select(g => new { Day = g.Key, Slots = g.Count(), Seats = g.Sum(s => (long)s.Capacity) })
            .ToListAsync(ct);
        var taken = await db.HotReservations.AsNoTracking()
            .Where(r => r.Day >= from && r.Day <= to)
            .GroupBy(r => r.Day)
            .Select(g => new { Day = g.Key, Count = g.Count() })
            .ToDictionaryAsync(x => x.Day, x => (long)x.Count, ct);
        return catalogue
            .OrderBy(c => c.Day)
            .Select(c =>
            {
                var reserved = taken.GetValueOrDefault(c.Day);
                return new DayStats(c.Day, c.Slots, c.Seats, c.Seats - reserved, reserved);
            })
            .ToList();
    }
}
