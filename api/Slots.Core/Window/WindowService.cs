using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Options;
using Slots.Places;
using Slots.Storage;

namespace Slots.Window;

/// <summary>Moves days into the hot window as they come within reach, place by place, in each place's time zone.</summary>
public sealed class WindowService(SlotsDbContext db, HotWindowLoader loader, TimeProvider clock, IOptions<WindowOptions> options)
{
    /// <summary>Brings every place's horizon to today + Days. Returns how many seats were loaded.</summary>
    public async Task<int> AdvanceAsync(CancellationToken ct)
    {
        var now = clock.GetUtcNow();
        var places = await db.Places.AsNoTracking().Select(p => new { p.Id, p.TimeZone, p.HotUntil }).ToListAsync(ct);
        var loaded = 0;
        foreach (var place in places)
        {
            var target = LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(place.TimeZone), now).AddDays(options.Value.Days);
            if (place.HotUntil >= target)
            {
                continue;
            }
            // Seats and horizon move together, so a writer that reads the horizon never sees a half-loaded day.
            await using var tx = await db.Database.BeginTransactionAsync(ct);
            var horizon = await loader.LockHorizonAsync(place.Id, ct);
            if (horizon < target)
            {
                loaded += await loader.LoadSeatsAsync(place.Id, horizon, target.AddDays(-1), ct);
                await db.Places.Where(p => p.Id == place.Id).ExecuteUpdateAsync(s => s.SetProperty(p => p.HotUntil, target), ct);
            }
            await tx.CommitAsync(ct);
        }
        return loaded;
    }

    /// <summary>The horizon a new place starts with: its window is already open (it has no slots yet).</summary>
    public DateOnly InitialHorizon(string timeZone) =>
        LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(timeZone), clock.GetUtcNow()).AddDays(options.Value.Days);
}
