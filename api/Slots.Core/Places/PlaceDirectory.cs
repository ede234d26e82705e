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
/// instance and periodically for changes made through other instances.
/// </summary>
public sealed class PlaceDirectory(IServiceScopeFactory scopes, TimeProvider clock)
{
    private static readonly TimeSpan MaxAge = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan MissReload = TimeSpan.FromSeconds(1); // a reload by a concurrent miss this recent is used as is
    private readonly SemaphoreSlim _refreshing = new(1, 1);
    private volatile Snapshot _snapshot = new(new Dictionary<int, PlaceInfo>(), DateTimeOffset.MinValue);

    private sealed record Snapshot(IReadOnlyDictionary<int, PlaceInfo> Places, DateTimeOffset LoadedAt);

    public async ValueTask<PlaceInfo?> FindAsync(int placeId, CancellationToken ct)
    {
        var snapshot = _snapshot;
        var age = clock.GetUtcNow() - snapshot.LoadedAt;
        if (age > MaxAge)
        {
            snapshot = await RefreshAsync(snapshot, ct);
        }
        else if (!snapshot.Places.ContainsKey(placeId))
        {
            // A miss may be a place created on another instance a moment ago. That one id is looked up
            // (a primary-key read) and the copy reloaded only when it exists, so a made-up id costs one
            // indexed read and no wait, and cannot turn into a reload of the whole table.
            if (placeId < 1 || !await ExistsAsync(placeId, ct))
            {
                return null;
            }
            snapshot = await RefreshAsync(snapshot, ct);
        }
        return snapshot.Places.GetValueOrDefault(placeId);
    }

    public async ValueTask<IReadOnlyCollection<PlaceInfo>> AllAsync(CancellationToken ct)
    {
        var snapshot = _snapshot;
        if (clock.GetUtcNow() - snapshot.LoadedAt > MaxAge)
        {
            snapshot = await RefreshAsync(snapshot, ct);
        }
        return snapshot.Places.Values.ToList();
    }

    private async Task<bool> ExistsAsync(int placeId, CancellationToken ct)
    {
        await using var scope = scopes.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<ICatalogStore>().FindPlaceAsync(placeId, ct) is not null;
    }

    /// <summary>Forget the copy; the next read loads the table again.</summary>
    public void Invalidate() => _snapshot = _snapshot with { LoadedAt = DateTimeOffset.MinValue };

    private async Task<Snapshot> RefreshAsync(Snapshot seen, CancellationToken ct)
    {
        await _refreshing.WaitAsync(ct);
        try
        {
            if (!ReferenceEquals(seen, _snapshot) && clock.GetUtcNow() - _snapshot.LoadedAt < MissReload)
            {
                return _snapshot; // someone else refreshed while we waited
            }
            await using var scope = scopes.CreateAsyncScope();
            var rows = await scope.ServiceProvider.GetRequiredService<ICatalogStore>().AllPlacesAsync(ct);
            var map = rows.ToDictionary(
                p => p.Id,
                p => new PlaceInfo(p.Id, p.Name, p.Address, p.Region, TimeZoneInfo.FindSystemTimeZoneById(p.TimeZone), p.Active, p.HotUntil,
                    p.ClosedAt is not null));
            var fresh = new Snapshot(map, clock.GetUtcNow());
            _snapshot = fresh;
            return fresh;
        }
        finally
        {
            _refreshing.Release();
        }
    }
}
