using Microsoft.Extensions.DependencyInjection;

namespace Slots.Catalogue;

/// <summary>A service as one place offers it: the catalogue's entry and the place's seats and template.</summary>
public sealed record OfferedService(ServiceInfo Service, PlaceOffer Offer);

/// <summary>
/// An in-memory copy of the service catalogue and of what each place offers. Both change rarely and
/// the place page, the service list and (later) every booking that names no service need them, so
/// they are read from here, as places are from <see cref="Places.PlaceDirectory"/>. Refreshed after
/// admin writes on this instance and, behind the readers, every 30 s for changes made through other instances.
/// </summary>
public sealed class ServiceDirectory
{
    private static readonly TimeSpan MaxAge = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan MissReload = TimeSpan.FromSeconds(1); // a copy this recent is not reloaded for a miss
    private readonly IServiceScopeFactory _scopes;
    private readonly TimeProvider _clock;
    private readonly ReloadedCopy<Snapshot> _copy;

    public ServiceDirectory(IServiceScopeFactory scopes, TimeProvider clock)
    {
        _scopes = scopes;
        _clock = clock;
        _copy = new(LoadAsync, clock, MaxAge);
    }

    private sealed record Snapshot(IReadOnlyList<ServiceInfo> Services, IReadOnlyDictionary<int, IReadOnlyList<OfferedService>> ByPlace);

    /// <summary>Every service of the catalogue, active or not, by id.</summary>
    public async ValueTask<IReadOnlyList<ServiceInfo>> AllAsync(CancellationToken ct) => (await _copy.GetAsync(ct)).Value.Services;

    /// <summary>The active services a place offers, by service id; empty for a place that offers none (or is unknown).</summary>
    /// <remarks>
    /// Every place offers a service from its creation on, so a place missing from the copy is most likely
    /// one created on another instance a moment ago: the copy is reloaded then, at most once a second.
    /// </remarks>
    public async ValueTask<IReadOnlyList<OfferedService>> OfferedAtAsync(int placeId, CancellationToken ct)
    {
        var copy = await _copy.GetAsync(ct);
        if (!copy.Value.ByPlace.ContainsKey(placeId) && _clock.GetUtcNow() - copy.At > MissReload)
        {
            copy = await _copy.ReloadAsync(copy, MissReload, ct);
        }
        return copy.Value.ByPlace.GetValueOrDefault(placeId) ?? [];
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
    public void Invalidate() => _copy.Invalidate();

    /// <summary>Completes once the copy is loaded (at once when it is): readiness, so an instance's first readers find it.</summary>
    public async ValueTask LoadedAsync(CancellationToken ct) => await _copy.GetAsync(ct);

    private async Task<Snapshot> LoadAsync(CancellationToken ct)
    {
        await using var scope = _scopes.CreateAsyncScope();
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
        return new Snapshot(services, byPlace);
    }
}
