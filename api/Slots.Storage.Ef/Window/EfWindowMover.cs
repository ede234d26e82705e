using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using Slots.Window;

namespace Slots.Storage.Ef;

/// <summary>Moves days into the hot window as they come within reach, place by place, in each place's time zone.</summary>
public sealed class EfWindowMover(SlotsDbContext db, HotWindowLoader loader, TimeProvider clock, IOptions<WindowOptions> options)
{
    /// <summary>
    /// Brings every place's horizon to today + Days: the seats of the days entering the window,
    /// the cold-path reservations of those days, and the horizon itself move in one transaction
    /// under the place's row lock, so no cold-path write (which takes the same lock, shared, and
    /// checks the horizon) can land between. Returns the seats loaded; a rerun loads nothing.
    /// </summary>
    public async Task<WindowMove> AdvanceAsync(CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        var places = await db.Places.AsNoTracking().Select(p => new { p.Id, p.TimeZone, p.HotUntil }).ToListAsync(ct);
        int seats = 0, reservations = 0;
        foreach (var place in places)
        {
            var today = LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(place.TimeZone), now);
            var target = today.AddDays(options.Value.Days);
            if (place.HotUntil >= target)
            {
                continue;
            }
            await using var tx = await db.Database.BeginTransactionAsync(ct);
            var horizon = await loader.LockHorizonAsync(place.Id, ct);
            if (horizon < target)
            {
                // Days that ended while nobody moved the window stay on disk: nobody can book them.
                var from = horizon < today ? today : horizon;
                seats += await loader.LoadSeatsAsync(place.Id, from, target.AddDays(-1), ct);
                reservations += await loader.LoadColdReservationsAsync(place.Id, from, target.AddDays(-1), ct);
                await db.Places.Where(p => p.Id == place.Id).ExecuteUpdateAsync(s => s.SetProperty(p => p.HotUntil, target), ct);
            }
            await tx.CommitAsync(ct);
        }
        return new WindowMove(seats, reservations);
    }
}
