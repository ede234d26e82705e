namespace Slots.Catalogue;

/// <summary>What an admin's write of the catalogue came to.</summary>
public enum CatalogueWrite
{
    Written,
    CodeTaken,
    UnknownService,
    UnknownPlace,
}

/// <summary>
/// Admins' writes of the service catalogue and of what places offer. Each write is one store call and
/// drops this instance's <see cref="ServiceDirectory"/> copy, so the next booking or page read here sees
/// it at once; other instances within the directory's age (30 s).
/// </summary>
public sealed class ServiceCatalog(ICatalogStore store, ServiceDirectory directory)
{
    public async Task<(CatalogueWrite Result, ServiceInfo? Service)> AddAsync(ServiceInfo service, CancellationToken ct)
    {
        var added = await store.AddServiceAsync(service, ct);
        directory.Invalidate();
        return added is null ? (CatalogueWrite.CodeTaken, null) : (CatalogueWrite.Written, added);
    }

    public async Task<(CatalogueWrite Result, ServiceInfo? Service)> UpdateAsync(ServiceInfo service, CancellationToken ct)
    {
        var updated = await store.UpdateServiceAsync(service, ct);
        directory.Invalidate();
        return updated is null ? (CatalogueWrite.UnknownService, null) : (CatalogueWrite.Written, updated);
    }

    /// <summary>Sets who may book the service with this code: its rule, whether invitations qualify, and dated age steps, replacing those stored.</summary>
    public async Task<(CatalogueWrite Result, ServiceInfo? Service)> SetEligibilityAsync(
        string code, Eligibility.EligibilityRule rule, bool acceptsInvitations, IReadOnlyList<Eligibility.AgeStep> steps, CancellationToken ct)
    {
        var written = await store.SetEligibilityAsync(code, rule, acceptsInvitations, steps, ct);
        directory.Invalidate();
        return written is null ? (CatalogueWrite.UnknownService, null) : (CatalogueWrite.Written, written);
    }

    /// <summary>Sets what the place offers of the service with this code; the place may be inactive, the service too.</summary>
    public async Task<(CatalogueWrite Result, PlaceOffer? Offer)> OfferAsync(
        int placeId, string code, int? seats, SlotTemplate? template, bool active, CancellationToken ct)
    {
        if (await store.FindPlaceAsync(placeId, ct) is null)
        {
            return (CatalogueWrite.UnknownPlace, null);
        }
        // Read from the store, not the copy: a service just added on another instance is offered at once.
        if ((await store.AllServicesAsync(ct)).FirstOrDefault(s => s.Code == code) is not { } service)
        {
            return (CatalogueWrite.UnknownService, null);
        }
        var offer = new PlaceOffer(placeId, service.Id, seats, template, active);
        await store.OfferAsync(offer, ct);
        directory.Invalidate();
        return (CatalogueWrite.Written, offer);
    }
}
