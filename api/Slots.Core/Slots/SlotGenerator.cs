using Microsoft.EntityFrameworkCore;
using Slots.Places;
using Slots.Storage;
using Slots.Window;

namespace Slots.Slots;

/// <summary>
/// Writes slots into the disk catalogue for places × days × template. Re-running it never
/// duplicates: existing slots are kept as they are and counted. Days already inside the hot window
/// get their seats in the same transaction, so the window never misses a slot.
/// </summary>
public sealed class SlotGenerator(SlotsDbContext db, HotWindowLoader loader, PlaceDirectory directory)
{
    public async Task<GenerateSlotsResult> GenerateAsync(GenerateSlots request, CancellationToken ct)
    {
        var starts = request.Template.StartMinutes().ToList();
        var places = await db.Places.AsNoTracking()
            .Where(p => request.PlaceIds.Count == 0 ? p.Active : request.PlaceIds.Contains(p.Id))
            .OrderBy(p => p.Id)
            .ToListAsync(ct);
        int created = 0, existing = 0, inWindow = 0;
        long seats = 0;
        foreach (var place in places)
        {
            var zone = TimeZoneInfo.FindSystemTimeZoneById(place.TimeZone);
            await using var tx = await db.Database.BeginTransactionAsync(ct);
            var horizon = await loader.LockHorizonAsync(place.Id, ct);
            var taken = (await db.Slots.AsNoTracking()
                    .Where(s => s.PlaceId == place.Id && s.Day >= request.From && s.Day <= request.To)
                    .Select(s => new { s.Day, s.StartMinute })
                    .ToListAsync(ct))
                .Select(s => (s.Day, s.StartMinute))
                .ToHashSet();
            var fresh = new List<SlotRow>();
            for (var day = request.From; day <= request.To; day = day.AddDays(1))
            {
                foreach (var minute in starts)
                {
                    if (taken.Contains((day, minute)))
                    {
                        existing++;
                        continue;
                    }
                    fresh.Add(new SlotRow
                    {
                        PlaceId = place.Id,
                        Day = day,
                        StartMinute = minute,
                        Minutes = request.Template.LengthMinutes,
                        Capacity = request.Capacity,
                        StartsAt = LocalClock.ToInstant(day, minute, zone).ToUnixTimeSeconds(),
                    });
                }
            }
            created += fresh.Count;
            var hot = fresh.Count(s => s.Day < horizon);
            inWindow += hot;
            seats += (long)hot * request.Capacity;
            if (request.DryRun)
            {
                continue;
            }
            db.Slots.AddRange(fresh);
            await db.SaveChangesAsync(ct);
            db.ChangeTracker.Clear();
            if (hot > 0)
            {
                var firstHot = request.From;
                var lastHot = horizon.AddDays(-1) < request.To ? horizon.AddDays(-1) : request.To;
                await loader.LoadSeatsAsync(place.Id, firstHot, lastHot, ct);
            }
            await tx.CommitAsync(ct);
        }
        if (!request.DryRun)
        {
            directory.Invalidate();
        }
        return new GenerateSlotsResult(places.Count, created, existing, seats, inWindow);
    }
}
