using Microsoft.Extensions.DependencyInjection;

namespace Slots.Catalogue;

/// <summary>A service as one place offers it: the catalogue's entry and the place's seats and template.</summary>
public sealed record OfferedService(ServiceInfo Service, PlaceOffer Offer);

/// <summary>
/// An in-memory copy of the service catalogue and of what each place offers. Both change rarely and
/// the place page, the service list and (later) every booking that names no service need them, so
/// they are read from here, as places are from <see cref="Places.PlaceDirectory"/>. Refreshed after
/// admin writes on this instance and periodically for changes made through other instances.
/// </summary>
public sealed class ServiceDirectory(IServiceScopeFactory scopes, TimeProvider clock)
{
    private static readonly TimeSpan MaxAge = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan MissReload = TimeSpan.FromSeconds(1); // a copy this recent is not reloaded for a miss
    private readonly SemaphoreSlim _refreshing = new(1, 1);
    private volatile Snapshot _snapshot = Snapshot.Empty;

    private sealed record Snapshot(
        IReadOnlyList<ServiceInfo> Services, IReadOnlyDictionary<int, IReadOnlyList<OfferedService>> ByPlace, DateTimeOffset LoadedAt)
    {
        public static readonly Snapshot Empty = new([], new Dictionary<int, IReadOnlyList<OfferedService>>(), DateTimeOffset.MinValue);
    }

    /// <summary>Every service of the catalogue, active or not, by id.</summary>
    public async ValueTask<IReadOnlyList<ServiceInfo>> AllAsync(CancellationToken ct) => (await CurrentAsync(ct)).Services;

    /// <summary>The active services a place offers, by service id; empty for a place that offers none (or is unknown).</summary>
    /// <remarks>
    /// Every place offers a service from its creation on, so a place missing from the copy is most likely
    /// one created on another instance a moment ago: the copy is reloaded then, at most once a second.
    /// </remarks>
    public async ValueTask<IReadOnlyList<OfferedService>> OfferedAtAsync(int placeId, CancellationToken ct)
    {
        var snapshot = await CurrentAsync(ct);
        if (!snapshot.ByPlace.ContainsKey(placeId) && clock.GetUtcNow() - snapshot.LoadedAt > MissReload)
        {
            snapshot = await RefreshAsync(snapshot, ct);
        }
        return snapshot.ByPlace.GetValueOrDefault(placeId) ?? [];
    }

    /// <summary>The catalogue's service with this id, active or not; null when there is none.</summary>
    public async ValueTask<ServiceInfo?> FindAsync(int serviceId, CancellationToken ct)
    {
        foreach (var service in await AllAsync(ct))
        {
            if (service.Id == serviceId)
            {
                return service;
            }
        }
        return null;
    }

    /// <summary>Forget the copy; the next read loads the tables again.</summary>
    public void Invalidate() => _snapshot = _snapshot with { LoadedAt = DateTimeOffset.MinValue };

    private async ValueTask<Snapshot> CurrentAsync(CancellationToken ct)
    {
        var snapshot = _snapshot;
        return clock.GetUtcNow() - snapshot.LoadedAt > MaxAge ? await RefreshAsync(snapshot, ct) : snapshot;
    }

    private async Task<Snapshot> RefreshAsync(Snapshot seen, CancellationToken ct)
    {
        await _refreshing.WaitAsync(ct);
        try
        {
            if (!ReferenceEquals(seen, _snapshot) && clock.GetUtcNow() - _snapshot.LoadedAt <= MissReload)
            {
                return _snapshot; // someone else refreshed while we waited
            }
            await using var scope = scopes.CreateAsyncScope();
            var store = scope.ServiceProvider.GetRequiredService<ICatalogStore>();
            var services = (await store.AllServicesAsync(ct)).OrderBy(s => s.Id).ToList();
            var offers = await store.OffersAsync(ct);
            var byId = services.ToDictionary(s => s.Id);
            var byPlace = offers
                .Where(o => o.Active && byId.TryGetValue(o.ServiceId, out var s) && s.Active)
                .GroupBy(o => o.PlaceId)
                .ToDictionary(
                    g => g.Key,
                    g => (IReadOnlyList<OfferedService>)g.OrderBy(o => o.ServiceId).Select(o => new OfferedService(byId[o.ServiceId], o)).ToList());
            var fresh = new Snapshot(services, byPlace, clock.GetUtcNow());
            _snapshot = fresh;
            return fresh;
        }
        finally
        {
            _refreshing.Release();
        }
    }
}
