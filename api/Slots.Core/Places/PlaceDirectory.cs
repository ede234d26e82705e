using Microsoft.Extensions.DependencyInjection;
using Slots.Catalogue;
using Slots.Storage;

namespace Slots.Places;

/// <summary>What the hot path needs to know about a place, resolved without a database round trip.</summary>
/// <remarks>
/// HotUntil is the window horizon as last loaded: never ahead of the stored one (horizons only
/// grow), so a day before it is certainly hot; a day from it on is checked again under the
/// place's row lock by the cold path.
/// </remarks>
public sealed record PlaceInfo(int Id, string Name, string Address, string Region, TimeZoneInfo TimeZone, bool Active, DateOnly HotUntil = default,
    bool Closed = false);

/// <summary>
/// An in-memory copy of the places table. Places change rarely and every reservation needs the
/// place's time zone, so the hot path reads them from here. Refreshed after admin writes on this
/// instance and, behind the readers, every 30 s for changes made through other instances.
/// </summary>
public sealed class PlaceDirectory
{
    private static readonly TimeSpan MaxAge = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan MissReload = TimeSpan.FromSeconds(1); // a reload by a concurrent miss this recent is used as is
    private readonly IServiceScopeFactory _scopes;
    private readonly ReloadedCopy<IReadOnlyDictionary<int, PlaceInfo>> _copy;

    public PlaceDirectory(IServiceScopeFactory scopes, TimeProvider clock)
    {
        _scopes = scopes;
        _copy = new(LoadAsync, clock, MaxAge);
    }

    public async ValueTask<PlaceInfo?> FindAsync(int placeId, CancellationToken ct)
    {
        var copy = await _copy.GetAsync(ct);
        if (!copy.Value.ContainsKey(placeId))
        {
            // A miss may be a place created on another instance a moment ago. That one id is looked up
            // (a primary-key read) and the copy reloaded only when it exists, so a made-up id costs one
            // indexed read and no wait, and cannot turn into a reload of the whole table.
            if (placeId < 1 || !await ExistsAsync(placeId, ct))
            {
                return null;
            }
            copy = await _copy.ReloadAsync(copy, MissReload, ct);
        }
        return copy.Value.GetValueOrDefault(placeId);
    }

    public async ValueTask<IReadOnlyCollection<PlaceInfo>> AllAsync(CancellationToken ct) => (await _copy.GetAsync(ct)).Value.Values.ToList();

    private async Task<bool> ExistsAsync(int placeId, CancellationToken ct)
    {
        await using var scope = _scopes.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<ICatalogStore>().FindPlaceAsync(placeId, ct) is not null;
    }

    /// <summary>Forget the copy; the next read loads the table again.</summary>
    public void Invalidate() => _copy.Invalidate();

    /// <summary>Completes once the copy is loaded (at once when it is): readiness, so an instance's first readers find it.</summary>
    public async ValueTask LoadedAsync(CancellationToken ct) => await _copy.GetAsync(ct);

    private async Task<IReadOnlyDictionary<int, PlaceInfo>> LoadAsync(CancellationToken ct)
    {
        await using var scope = _scopes.CreateAsyncScope();
        var rows = await scope.ServiceProvider.GetRequiredService<ICatalogStore>().AllPlacesAsync(ct);
        return rows.ToDictionary(
            p => p.Id,
            p => new PlaceInfo(p.Id, p.Name, p.Address, p.Region, TimeZoneInfo.FindSystemTimeZoneById(p.TimeZone), p.Active, p.HotUntil,
                p.ClosedAt is not null));
    }
}
