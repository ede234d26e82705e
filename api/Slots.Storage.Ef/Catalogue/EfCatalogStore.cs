using Microsoft.EntityFrameworkCore;
using Slots.Catalogue;
using Slots.Places;
using Slots.Staff;
using Slots.Window;

namespace Slots.Storage.Ef;

/// <summary>
/// The disk catalogue through EF Core, on every backend. Slot generation gives the days already
/// inside the window their hot seats in the same transaction: here through the window loader
/// (SQLite and PostgreSQL); SQL Server overrides it with its proc beside the hot path's.
/// </summary>
public partial class EfCatalogStore(SlotsDbContext db, HotWindowLoader? loader) : ICatalogStore
{
    protected SlotsDbContext Db => db;

    public async Task<PlacePage> ListPlacesAsync(PlaceQuery query, CancellationToken ct)
    {
        var places = db.Places.AsNoTracking().Where(p => p.Active);
        if (!string.IsNullOrWhiteSpace(query.Region))
        {
            places = places.Where(p => p.Region == query.Region);
        }
        if (query.NamePattern() is { } pattern)
        {
            places = places.Where(p => EF.Functions.Like(SearchText.Lower(p.Name), pattern, PlaceQuery.LikeEscape));
        }
        var total = await places.CountAsync(ct);
        var items = await places
            .OrderBy(p => p.Region).ThenBy(p => p.Name).ThenBy(p => p.Id)
            .Skip((query.Page - 1) * query.PageSize)
            .Take(query.PageSize)
            .ToListAsync(ct);
        return new PlacePage(items, total);
    }

    public Task<Place?> FindPlaceAsync(int id, CancellationToken ct) =>
        db.Places.AsNoTracking().SingleOrDefaultAsync(p => p.Id == id, ct);

    public async Task<IReadOnlyList<Place>> AllPlacesAsync(CancellationToken ct) =>
        await db.Places.AsNoTracking().ToListAsync(ct);

    public async Task<IReadOnlyList<string>> RegionsAsync(CancellationToken ct) =>
        await db.Places.AsNoTracking().Where(p => p.Active).Select(p => p.Region).Distinct().OrderBy(r => r).ToListAsync(ct);

    public Task<bool> AnyPlaceAsync(CancellationToken ct) => db.Places.AnyAsync(ct);

    public async Task<Place> AddPlaceAsync(Place place, CancellationToken ct)
    {
        // The place and its offer of the default service in one transaction: a place never offers nothing.
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        db.Places.Add(place);
        await db.SaveChangesAsync(ct);
        var offer = new PlaceServiceRecord { PlaceId = place.Id, ServiceId = ServiceIds.Default };
        db.PlaceServices.Add(offer);
        await db.SaveChangesAsync(ct);
        await tx.CommitAsync(ct);
        db.Entry(place).State = EntityState.Detached;
        db.Entry(offer).State = EntityState.Detached;
        return place;
    }

    public async Task<PlaceEdited?> EditPlaceAsync(int id, PlaceEdit edit, CancellationToken ct)
    {
        var place = await db.Places.SingleOrDefaultAsync(p => p.Id == id, ct);
        if (place is null)
        {
            return null;
        }
        var before = new Place
        {
            Id = place.Id,
            Name = place.Name,
            Address = place.Address,
            Region = place.Region,
            TimeZone = place.TimeZone,
            Active = place.Active,
            OpeningHours = place.OpeningHours,
            ClosedAt = place.ClosedAt,
            HotUntil = place.HotUntil,
        };
        place.Name = edit.Name;
        place.Address = edit.Address;
        place.Region = edit.Region;
        place.OpeningHours = edit.OpeningHours;
        await db.SaveChangesAsync(ct);
        db.Entry(place).State = EntityState.Detached;
        return new PlaceEdited(before, place);
    }

    public Task SetPlaceClosedAsync(int id, long? closedAt, CancellationToken ct) =>
        db.Places.Where(p => p.Id == id).ExecuteUpdateAsync(u => u.SetProperty(p => p.ClosedAt, closedAt), ct);

    public async Task<IReadOnlyList<DateOnly>> DaysWithSlotsAsync(int placeId, DateOnly from, CancellationToken ct) =>
        await db.Slots.AsNoTracking().Where(s => s.PlaceId == placeId && s.Day >= from)
            .Select(s => s.Day).Distinct().OrderBy(d => d).ToListAsync(ct);

    public virtual async Task<SlotsAdded> AddSlotsAsync(int placeId, IReadOnlyList<SlotRow> slots, bool dryRun, CancellationToken ct)
    {
        if (slots.Count == 0)
        {
            return default;
        }
        var loader = Loader;
        var from = slots.Min(s => s.Day);
        var to = slots.Max(s => s.Day);
        await using var tx = await db.Database.BeginTransactionAsync(ct);
        var horizon = await loader.LockHorizonAsync(placeId, ct);
        var taken = (await db.Slots.AsNoTracking()
                .Where(s => s.PlaceId == placeId && s.Day >= from && s.Day <= to)
                .Select(s => new { s.Day, s.StartMinute, s.ServiceId })
                .ToListAsync(ct))
            .Select(s => (s.Day, s.StartMinute, s.ServiceId))
            .ToHashSet();
        var fresh = slots.Where(s => !taken.Contains((s.Day, s.StartMinute, s.ServiceId))).ToList();
        var hot = fresh.Where(s => s.Day < horizon).ToList();
        var added = new SlotsAdded(fresh.Count, slots.Count - fresh.Count, hot.Count);
        if (dryRun)
        {
            return added; // the transaction rolls back unused
        }
        db.Slots.AddRange(fresh);
        await db.SaveChangesAsync(ct);
        db.ChangeTracker.Clear();
        if (hot.Count > 0)
        {
            await loader.LoadSeatsAsync(placeId, hot.Min(s => s.Day), hot.Max(s => s.Day), ct);
        }
        await tx.CommitAsync(ct);
        return added;
    }

    private HotWindowLoader Loader => loader ?? throw new InvalidOperationException("This backend's catalogue generates slots without the window loader.");

    public async Task<IReadOnlyList<DayStats>> DayTotalsAsync(DateOnly first, DateOnly last, int? placeId, int? serviceId, CancellationToken ct)
    {
        var catalogue = await db.Slots.AsNoTracking()
            .Where(s => s.Day >= first && s.Day <= last && (placeId == null || s.PlaceId == placeId) && (serviceId == null || s.ServiceId == serviceId))
            .GroupBy(s => s.Day)
            .Select(g => new { Day = g.Key, Slots = g.Count(), Seats = g.Sum(s => (long)s.Capacity) })
            .ToListAsync(ct);
        var hot = await db.HotReservations.AsNoTracking()
            .Where(r => r.Day >= first && r.Day <= last && (placeId == null || r.PlaceId == placeId) && (serviceId == null || r.ServiceId == serviceId))
            .GroupBy(r => r.Day)
            .Select(g => new { Day = g.Key, Count = g.Count() })
            .ToDictionaryAsync(x => x.Day, x => (long)x.Count, ct);
        // Cold-path reservations: on days from their place's horizon on (days before it are counted hot).
        var cold = await (
                from r in db.Reservations.AsNoTracking()
                join p in db.Places on r.PlaceId equals p.Id
                where r.Day >= first && r.Day <= last && r.CancelledAt == null && r.Day >= p.HotUntil
                    && (placeId == null || r.PlaceId == placeId) && (serviceId == null || r.ServiceId == serviceId)
                group r by r.Day into g
                select new { Day = g.Key, Count = g.Count() })
            .ToDictionaryAsync(x => x.Day, x => (long)x.Count, ct);
        var door = (await db.Attendance.AsNoTracking()
                .Where(a => a.Day >= first && a.Day <= last && (placeId == null || a.PlaceId == placeId)
                    && (a.State == (int)RosterState.CheckedIn || a.State == (int)RosterState.NoShow)
                    // The door's record names no service: its booking does, hot or on disk.
                    && (serviceId == null
                        || db.HotReservations.Any(h => h.Code == a.Code && h.ServiceId == serviceId)
                        || db.Reservations.Any(r => r.Code == a.Code && r.ServiceId == serviceId)))
                .GroupBy(a => new { a.Day, a.State })
                .Select(g => new { g.Key.Day, g.Key.State, Count = g.Count() })
                .ToListAsync(ct))
            .ToDictionary(x => (x.Day, (RosterState)x.State), x => (long)x.Count);
        return catalogue
            .OrderBy(c => c.Day)
            .Select(c => DayStats.Of(c.Day, c.Slots, c.Seats, hot.GetValueOrDefault(c.Day) + cold.GetValueOrDefault(c.Day),
                door.GetValueOrDefault((c.Day, RosterState.CheckedIn)), door.GetValueOrDefault((c.Day, RosterState.NoShow))))
            .ToList();
    }
}
