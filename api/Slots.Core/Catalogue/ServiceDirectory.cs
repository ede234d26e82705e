using Microsoft.Extensions.DependencyInjection;

namespace Slots.Catalogue;

/// <summary>A service as one place offers it: the catalogue's entry and the place's seats and template.</summary>
public sealed record OfferedService(ServiceInfo Service, PlaceOffer Offer);

/// <summary>
/// An in-memory copy of the service catalogue and of what each place offers. Both change rarely and
/// the place page, the service list and (later) every booking that names no service need them, so
/// they are read from here, as places are from <see cref="Places.PlaceDirectory"/>. Refreshed after
/// admin writes on this instance, at once for a place made through another instance, and, behind the
/// readers, every 30 s for other changes made through other instances.
/// </summary>
public sealed class ServiceDirectory
{
    private static readonly TimeSpan MaxAge = TimeSpan.FromSeconds(30);
    private static readonly TimeSpan SharedReload = TimeSpan.FromSeconds(1); // a concurrent miss's load this recent is taken
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

    /// <summary>The active services a place offers, by service id; empty for a place that offers none.</summary>
    /// <remarks>
    /// Callers pass a place the place directory knows. Every place has its offers from its creation on,
    /// and the copy holds each place that has any, active or not: a place the copy lacks was made after it
    /// was loaded (on another instance), so the copy is loaded again at once, however young, and shared
    /// with the misses beside it. A second try covers a shared load that began before the place was made.
    /// </remarks>
    public async ValueTask<IReadOnlyList<OfferedService>> OfferedAtAsync(int placeId, CancellationToken ct)
    {
        var copy = await _copy.GetAsync(ct);
        for (var tries = 0; tries < 2 && !copy.Value.ByPlace.ContainsKey(placeId); tries++)
        {
            copy = await _copy.ReloadAsync(copy, SharedReload, ct);
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
        // Keyed by every place with an offer, so a place whose services are all off is not a miss.
        var byPlace = offers
            .GroupBy(o => o.PlaceId)
            .ToDictionary(
                g => g.Key,
                g => (IReadOnlyList<OfferedService>)g
                    .Where(o => o.Active && byId.TryGetValue(o.ServiceId, out var s) && s.Active)
                    .OrderBy(o => o.ServiceId)
                    .Select(o => new OfferedService(byId[o.ServiceId], o))
                    .ToList());
        return new Snapshot(services, byPlace);
    }
}
