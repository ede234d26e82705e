using Slots.Catalogue;
using Slots.Places;

namespace Slots.Api.Tests.Campaign;

/// <summary>
/// The catalogue port with only the reads the places and services copies make, over lists a test may change
/// (a write on another instance); counts the loads of each copy.
/// </summary>
internal sealed class CatalogueReads(List<ServiceInfo> services, List<PlaceOffer> offers, List<Place>? places = null) : ICatalogStore
{
    private readonly List<Place> _places = places ?? [];

    public List<PlaceOffer> Offers => offers;

    private int _loads;

    public int Loads => Volatile.Read(ref _loads);

    /// <summary>While set and not yet completed, a load waits for it (a database that does not answer).</summary>
    public TaskCompletionSource? Gate { get; set; }

    public async Task<IReadOnlyList<ServiceInfo>> AllServicesAsync(CancellationToken ct)
    {
        Interlocked.Increment(ref _loads);
        if (Gate is { } gate)
        {
            await gate.Task.WaitAsync(ct);
        }
        return services.ToList();
    }

    public Task<IReadOnlyList<PlaceOffer>> OffersAsync(CancellationToken ct) => Task.FromResult<IReadOnlyList<PlaceOffer>>(offers.ToList());

    public Task<Place?> FindPlaceAsync(int id, CancellationToken ct) => Task.FromResult(_places.FirstOrDefault(p => p.Id == id));

    public int PlaceLoads => Volatile.Read(ref _placeLoads);

    private int _placeLoads;

    public Task<IReadOnlyList<Place>> AllPlacesAsync(CancellationToken ct)
    {
        Interlocked.Increment(ref _placeLoads);
        return Task.FromResult<IReadOnlyList<Place>>(_places.ToList());
    }

    public Task<PlacePage> ListPlacesAsync(PlaceQuery query, CancellationToken ct) => throw new NotSupportedException();

    public Task<IReadOnlyList<string>> RegionsAsync(CancellationToken ct) => throw new NotSupportedException();

    public Task<bool> AnyPlaceAsync(CancellationToken ct) => throw new NotSupportedException();

    public Task<Place> AddPlaceAsync(Place place, CancellationToken ct) => throw new NotSupportedException();

    public Task<SlotsAdded> AddSlotsAsync(int placeId, IReadOnlyList<SlotRow> slots, bool dryRun, CancellationToken ct) => throw new NotSupportedException();

    public Task<IReadOnlyList<DayStats>> DayTotalsAsync(DateOnly first, DateOnly last, int? placeId, int? serviceId, CancellationToken ct) => throw new NotSupportedException();
    public Task<CapacityChanged> SetCapacityAsync(CapacityChange change, long now, CancellationToken ct) => throw new NotSupportedException();
    public Task<ServiceInfo?> SetEligibilityAsync(string code, Slots.Eligibility.EligibilityRule rule, bool acceptsInvitations, IReadOnlyList<Slots.Eligibility.AgeStep> steps, CancellationToken ct) => throw new NotSupportedException();
    public Task<ServiceInfo?> AddServiceAsync(ServiceInfo service, CancellationToken ct) => throw new NotSupportedException();
    public Task<ServiceInfo?> UpdateServiceAsync(ServiceInfo service, CancellationToken ct) => throw new NotSupportedException();
    public Task OfferAsync(PlaceOffer offer, CancellationToken ct) => throw new NotSupportedException();

    public Task<PlaceEdited?> EditPlaceAsync(int id, PlaceEdit edit, CancellationToken ct) => throw new NotSupportedException();

    public Task SetPlaceClosedAsync(int id, long? closedAt, CancellationToken ct) => throw new NotSupportedException();

    public Task<IReadOnlyList<DateOnly>> DaysWithSlotsAsync(int placeId, DateOnly from, CancellationToken ct) => throw new NotSupportedException();
}
