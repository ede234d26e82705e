using Microsoft.Extensions.Options;
using Slots.Catalogue;
using Slots.Storage;
using Slots.Window;

namespace Slots.Places;

public sealed record NewPlace(string Name, string Address, string Region, string TimeZone, bool Active);

public sealed record PlaceQuery(string? Region, string? Name, int Page, int PageSize)
{
    /// <summary>The escape character of <see cref="NamePattern"/>.</summary>
    public const string LikeEscape = "\\";

    /// <summary>
    /// A LIKE pattern for a lower-cased name containing Name, with the person's own % and _ taken
    /// literally; null when no name is asked for.
    /// </summary>
    public string? NamePattern()
    {
        if (string.IsNullOrWhiteSpace(Name))
        {
            return null;
        }
        var literal = Name.Trim().ToLowerInvariant()
            .Replace(LikeEscape, LikeEscape + LikeEscape, StringComparison.Ordinal)
            .Replace("%", LikeEscape + "%", StringComparison.Ordinal)
            .Replace("_", LikeEscape + "_", StringComparison.Ordinal)
            .Replace("[", LikeEscape + "[", StringComparison.Ordinal);
        return $"%{literal}%";
    }
}

public sealed record PlacePage(IReadOnlyList<Place> Items, int Total);

/// <summary>Places on the cold side: listing for people, creation for admins (a new place offers the default service).</summary>
public sealed class PlaceCatalog(
    ICatalogStore store, PlaceDirectory directory, ServiceDirectory services, TimeProvider clock, IOptions<WindowOptions> window)
{
    public Task<PlacePage> ListAsync(PlaceQuery query, CancellationToken ct) => store.ListPlacesAsync(query, ct);

    public Task<Place?> FindAsync(int id, CancellationToken ct) => store.FindPlaceAsync(id, ct);

    public Task<IReadOnlyList<string>> RegionsAsync(CancellationToken ct) => store.RegionsAsync(ct);

    public async Task<Place> CreateAsync(NewPlace place, CancellationToken ct)
    {
        var row = await store.AddPlaceAsync(new Place
        {
            Name = place.Name,
            Address = place.Address,
            Region = place.Region,
            TimeZone = place.TimeZone,
            Active = place.Active,
            HotUntil = InitialHorizon(place.TimeZone),
        }, ct);
        directory.Invalidate();
        services.Invalidate(); // the new place offers the default service
        return row;
    }

    /// <summary>The horizon a new place starts with: its window is already open (it has no slots yet).</summary>
    private DateOnly InitialHorizon(string timeZone) =>
        LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(timeZone), clock.GetUtcNow()).AddDays(window.Value.Days);
}
