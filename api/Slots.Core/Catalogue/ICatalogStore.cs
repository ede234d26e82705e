using Slots.Catalogue;
using Slots.Places;

namespace Slots.Catalogue;

/// <summary>What adding a place's slots did: slots created, slots that were already there, and the created ones inside the window.</summary>
public readonly record struct SlotsAdded(int Created, int Existing, int CreatedInWindow);

/// <summary>
/// The disk catalogue behind listing and the admin features: places, the slot catalogue and the
/// per-day totals. EF Core implements it on SQLite and PostgreSQL (<see cref="EfCatalogStore"/>);
/// SqlClient on SQL Server, where slot generation reaches the memory-optimized seats (docs/sqlserver.md).
/// </summary>
public interface ICatalogStore
{
    /// <summary>A page of active places, by region, name and id; Name matches a part of the name, any case.</summary>
    Task<PlacePage> ListPlacesAsync(PlaceQuery query, CancellationToken ct);

    Task<Place?> FindPlaceAsync(int id, CancellationToken ct);

    /// <summary>Every place, active or not (the place directory's copy).</summary>
    Task<IReadOnlyList<Place>> AllPlacesAsync(CancellationToken ct);

    /// <summary>The regions of active places, in order.</summary>
    Task<IReadOnlyList<string>> RegionsAsync(CancellationToken ct);

    Task<bool> AnyPlaceAsync(CancellationToken ct);

    /// <summary>Stores a new place and gives it its id; the place offers the default service from then on.</summary>
    Task<Place> AddPlaceAsync(Place place, CancellationToken ct);

    /// <summary>
    /// Sets the place's name, address, region and opening hours in one write; answers the place as it
    /// was before and as it is now, or null when no place has that id.
    /// </summary>
    Task<PlaceEdited?> EditPlaceAsync(int id, PlaceEdit edit, CancellationToken ct);

    /// <summary>Marks the place closed at <paramref name="closedAt"/> (Unix seconds), or open (null).</summary>
    Task SetPlaceClosedAsync(int id, long? closedAt, CancellationToken ct);

    /// <summary>The days from <paramref name="from"/> on on which the place has slots, in order.</summary>
    Task<IReadOnlyList<DateOnly>> DaysWithSlotsAsync(int placeId, DateOnly from, CancellationToken ct);

    /// <summary>
    /// Adds the slots of one place that the catalogue lacks; those it has are kept as they are. It
    /// runs under the place's row lock (the window mover's), and slots on days inside the window
    /// get their hot seats in the same transaction, so the window never misses a slot. A dry run
    /// counts and writes nothing.
    /// </summary>
    Task<SlotsAdded> AddSlotsAsync(int placeId, IReadOnlyList<SlotRow> slots, bool dryRun, CancellationToken ct);

    /// <summary>
    /// Sets the seats of the place's slots of one service that <paramref name="change"/> names and that
    /// start after <paramref name="now"/> (Unix seconds), in one transaction with their hot seats: an
    /// added seat on a day the waiting list's line wants is kept for the line, a cut drops free seats
    /// and renumbers the bookings on seats past the new count. A cut below what a slot has booked
    /// changes nothing anywhere and names the bookings.
    /// </summary>
    Task<CapacityChanged> SetCapacityAsync(CapacityChange change, long now, CancellationToken ct);

    /// <summary>Every service of the catalogue, active or not, by id (the service directory's copy).</summary>
    Task<IReadOnlyList<ServiceInfo>> AllServicesAsync(CancellationToken ct);

    /// <summary>What every place offers, active or not, by place and service (the service directory's copy).</summary>
    Task<IReadOnlyList<PlaceOffer>> OffersAsync(CancellationToken ct);

    /// <summary>Adds a service to the catalogue under the next free id; null when its code is taken.</summary>
    Task<ServiceInfo?> AddServiceAsync(ServiceInfo service, CancellationToken ct);

    /// <summary>Sets the names, second dose and state of the service with this code; null when there is none.</summary>
    Task<ServiceInfo?> UpdateServiceAsync(ServiceInfo service, CancellationToken ct);

    /// <summary>
    /// Sets who may book the service with this code: the rule, whether invitation codes qualify too,
    /// and its dated age steps replace those stored, in one transaction. Null when there is no such service.
    /// </summary>
    Task<ServiceInfo?> SetEligibilityAsync(string code, Eligibility.EligibilityRule rule, bool acceptsInvitations,
        IReadOnlyList<Eligibility.AgeStep> steps, CancellationToken ct);

    /// <summary>Writes what a place offers of a service (seats, template, state), adding the offer or replacing it.</summary>
    Task OfferAsync(PlaceOffer offer, CancellationToken ct);

    /// <summary>
    /// Per day of [first, last] with slots, at one place or (null) all, of one service or (null) all:
    /// slots and seats from the catalogue, active reservations hot and cold, and the door's check-ins and no-shows.
    /// </summary>
    Task<IReadOnlyList<DayStats>> DayTotalsAsync(DateOnly first, DateOnly last, int? placeId, int? serviceId, CancellationToken ct);
}
