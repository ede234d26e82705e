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

/// <summary>What an admin may change of a place; its time zone and horizon stay.</summary>
public sealed record PlaceEdit(string Name, string Address, string Region, string? OpeningHours);

/// <summary>A place before and after an edit.</summary>
public sealed record PlaceEdited(Place Before, Place After)
{
    /// <summary>The fields that changed, by their API names, for the audit trail (a place's fields are no personal data).</summary>
    public IReadOnlyList<string> Changed()
    {
        var changed = new List<string>();
        if (Before.Name != After.Name)
        {
            changed.Add("name");
        }
        if (Before.Address != After.Address)
        {
            changed.Add("address");
        }
        if (Before.Region != After.Region)
        {
            changed.Add("region");
        }
        if (Before.OpeningHours != After.OpeningHours)
        {
            changed.Add("openingHours");
        }
        return changed;
    }
}

/// <summary>Places on the cold side: listing for people, creation (a new place offers the default service) and edits for admins.</summary>
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

    /// <summary>
    /// Edits the place; this instance's directory reads it again at once (other instances' within
    /// their refresh). Null when no place has that id.
    /// </summary>
    public async Task<PlaceEdited?> EditAsync(int id, PlaceEdit edit, CancellationToken ct)
    {
        var edited = await store.EditPlaceAsync(id, edit, ct);
        directory.Invalidate();
        return edited;
    }

    /// <summary>The horizon a new place starts with: its window is already open (it has no slots yet).</summary>
    private DateOnly InitialHorizon(string timeZone) =>
        LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(timeZone), clock.GetUtcNow()).AddDays(window.Value.Days);
}
