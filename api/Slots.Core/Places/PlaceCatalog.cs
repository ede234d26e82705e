using Microsoft.EntityFrameworkCore;
using Slots.Storage;
using Slots.Window;

namespace Slots.Places;

public sealed record NewPlace(string Name, string Address, string Region, string TimeZone, bool Active);

public sealed record PlaceQuery(string? Region, string? Name, int Page, int PageSize);

public sealed record PlacePage(IReadOnlyList<Place> Items, int Total);

/// <summary>Places on the cold side: listing for people, creation for admins.</summary>
public sealed class PlaceCatalog(SlotsDbContext db, WindowService window, PlaceDirectory directory)
{
    public async Task<PlacePage> ListAsync(PlaceQuery query, CancellationToken ct)
    {
        var places = db.Places.AsNoTracking().Where(p => p.Active);
        if (!string.IsNullOrWhiteSpace(query.Region))
        {
            places = places.Where(p => p.Region == query.Region);
        }
        if (!string.IsNullOrWhiteSpace(query.Name))
        {
            var pattern = $"%{query.Name.Trim().ToLowerInvariant()}%";
            places = places.Where(p => EF.Functions.Like(p.Name.ToLower(), pattern));
        }
        var total = await places.CountAsync(ct);
        var items = await places
            .OrderBy(p => p.Region).ThenBy(p => p.Name).ThenBy(p => p.Id)
            .Skip((query.Page - 1) * query.PageSize)
            .Take(query.PageSize)
            .ToListAsync(ct);
        return new PlacePage(items, total);
    }

    public Task<Place?> FindAsync(int id, CancellationToken ct) =>
        db.Places.AsNoTracking().SingleOrDefaultAsync(p => p.Id == id, ct);

    public async Task<IReadOnlyList<string>> RegionsAsync(CancellationToken ct) =>
        await db.Places.AsNoTracking().Where(p => p.Active).Select(p => p.Region).Distinct().OrderBy(r => r).ToListAsync(ct);

    public async Task<Place> CreateAsync(NewPlace place, CancellationToken ct)
    {
        var row = new Place
        {
            Name = place.Name,
            Address = place.Address,
            Region = place.Region,
            TimeZone = place.TimeZone,
            Active = place.Active,
            HotUntil = window.InitialHorizon(place.TimeZone),
        };
        db.Places.Add(row);
        await db.SaveChangesAsync(ct);
        directory.Invalidate();
        return row;
    }
}
