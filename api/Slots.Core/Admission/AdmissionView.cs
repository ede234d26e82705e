using Microsoft.Extensions.Options;
using Slots.Places;

namespace Slots.Admission;

/// <summary>An opening as this instance sees it: its counters, its recent admission waves and the places it covers now.</summary>
public sealed record OpeningView(Opening Opening, IReadOnlyList<AdmissionWave> Waves, IReadOnlySet<int> Places)
{
    public bool IsOpen => Opening.State == OpeningState.Open;

    /// <summary>The wave that admitted <paramref name="position"/>, when it is recent enough to be loaded.</summary>
    public AdmissionWave? WaveOf(long position)
    {
        foreach (var wave in Waves)
        {
            if (position >= wave.First && position <= wave.Last)
            {
                return wave;
            }
        }
        return null;
    }
}

/// <summary>Every opening this instance knows of, and which open opening each place is in.</summary>
public sealed record RoomSnapshot(IReadOnlyDictionary<long, OpeningView> Openings, IReadOnlyDictionary<int, long> OpenByPlace, DateTimeOffset LoadedAt)
{
    public static readonly RoomSnapshot Empty = new(new Dictionary<long, OpeningView>(), new Dictionary<int, long>(), DateTimeOffset.MinValue);

    /// <summary>The open opening whose scope holds the place, if any: booking there needs an admitted token.</summary>
    public OpeningView? OpenAt(int placeId) =>
        OpenByPlace.TryGetValue(placeId, out var id) ? Openings[id] : null;
}

/// <summary>
/// This instance's copy of the openings and their counters, read at most once per
/// <see cref="AdmissionOptions.ViewRefresh"/>: a stampede of status polls and booking checks
/// costs one query per refresh, whatever its size.
/// </summary>
public sealed class AdmissionView(IAdmissionStore store, PlaceDirectory places, TimeProvider clock, IOptions<AdmissionOptions> options)
{
    private readonly SemaphoreSlim _refreshing = new(1, 1);
    private volatile RoomSnapshot _snapshot = RoomSnapshot.Empty;

    /// <summary>The view, read again when older than the refresh interval or than <paramref name="notBefore"/>.</summary>
    public async ValueTask<RoomSnapshot> GetAsync(CancellationToken ct, DateTimeOffset? notBefore = null)
    {
        var snapshot = _snapshot;
        if (clock.GetUtcNow() - snapshot.LoadedAt < options.Value.ViewRefresh && snapshot.LoadedAt >= (notBefore ?? DateTimeOffset.MinValue))
        {
            return snapshot;
        }
        await _refreshing.WaitAsync(ct);
        try
        {
            if (!ReferenceEquals(snapshot, _snapshot) && _snapshot.LoadedAt >= (notBefore ?? DateTimeOffset.MinValue))
            {
                return _snapshot; // refreshed while this caller waited
            }
            _snapshot = await LoadAsync(ct);
            return _snapshot;
        }
        finally
        {
            _refreshing.Release();
        }
    }

    /// <summary>Forget the copy (after a change made through this instance); the next read loads it again.</summary>
    public void Invalidate() => _snapshot = _snapshot with { LoadedAt = DateTimeOffset.MinValue };

    private async Task<RoomSnapshot> LoadAsync(CancellationToken ct)
    {
        // Stamped with when the read began: what it shows is at least that fresh.
        var now = clock.GetUtcNow();
        // Waves older than the longest admission time have lapsed; a minute of them estimates the pace.
        var records = await store.LoadAsync(now - options.Value.TokenLifetime, now - TimeSpan.FromHours(1), ct);
        var all = await places.AllAsync(ct);
        var openings = new Dictionary<long, OpeningView>();
        var openByPlace = new Dictionary<int, long>();
        var waves = records.Waves.ToLookup(w => w.OpeningId);
        foreach (var opening in records.Openings)
        {
            var covered = PlacesOf(opening.Scope, all);
            openings[opening.Id] = new OpeningView(opening, waves[opening.Id].OrderBy(w => w.First).ToList(), covered);
            if (opening.State == OpeningState.Open)
            {
                foreach (var place in covered)
                {
                    // Openings do not overlap when created; should two ever cover a place, the older one decides.
                    openByPlace.TryAdd(place, opening.Id);
                }
            }
        }
        return new RoomSnapshot(openings, openByPlace, now);
    }

    /// <summary>The places a scope covers now: the region's places (active or not), or the listed ones.</summary>
    public static HashSet<int> PlacesOf(OpeningScope scope, IEnumerable<PlaceInfo> all) =>
        scope.Region is { } region
            ? all.Where(p => string.Equals(p.Region, region, StringComparison.Ordinal)).Select(p => p.Id).ToHashSet()
            : scope.PlaceIds.ToHashSet();
}
