using System.Globalization;
using System.Net.Http.Json;

namespace Slots.LoadTest.Simulation;

/// <summary>One slot a user goes for.</summary>
public readonly record struct SlotChoice(int PlaceId, string Day, string Time);

/// <summary>
/// The places and slot times the crowd aims at, read once through the public API before the run.
/// Most people want the same few places (the big city sites) and the first days: a skewed pick,
/// Zipf-like within the popular set, uniform outside it.
/// </summary>
public sealed class Catalog
{
    private readonly double[] _hotWeights;
    private readonly double[] _dayWeights;
    private readonly string[] _days; // "yyyy-MM-dd" of today + 0 … 29: formatted once, not on every pick

    public Catalog(IReadOnlyList<PlaceItem> places, IReadOnlyList<string> times, DateOnly today, int hotPlaces, int hotDays, double hotShare)
    {
        if (places.Count == 0 || times.Count == 0)
        {
            throw new InvalidOperationException("The API lists no bookable place or slot: seed data first (Slots.LoadTest seed, or demo data).");
        }
        Places = places;
        Times = times;
        Today = today;
        Hot = places.Take(hotPlaces).ToList();
        HotDays = hotDays;
        HotShare = hotShare;
        _hotWeights = Cumulative(Hot.Count);
        _dayWeights = Cumulative(hotDays);
        _days = Enumerable.Range(0, 30).Select(d => Day(today.AddDays(d))).ToArray();
    }

    public IReadOnlyList<PlaceItem> Places { get; }
    public IReadOnlyList<PlaceItem> Hot { get; }
    public IReadOnlyList<string> Times { get; }
    public DateOnly Today { get; }
    public int HotDays { get; }
    public double HotShare { get; }

    /// <summary>A place and a first day to look at: popular ones with probability HotShare. Days start tomorrow (today's may have begun).</summary>
    public (int PlaceId, DateOnly Day) PickPlaceAndDay(Random rng)
    {
        if (rng.NextDouble() < HotShare)
        {
            var place = Hot[Zipf(rng, _hotWeights)];
            return (place.Id, Today.AddDays(1 + Zipf(rng, _dayWeights)));
        }
        return (Places[rng.Next(Places.Count)].Id, Today.AddDays(1 + rng.Next(28)));
    }

    public SlotChoice Pick(Random rng)
    {
        var (placeId, day) = PickPlaceAndDay(rng);
        var offset = day.DayNumber - Today.DayNumber;
        return new SlotChoice(placeId, (uint)offset < (uint)_days.Length ? _days[offset] : Day(day), Times[rng.Next(Times.Count)]);
    }

    public static string Day(DateOnly day) => day.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    /// <summary>Index k drawn with weight 1/(k+1) from a cumulative table.</summary>
    internal static int Zipf(Random rng, double[] cumulative)
    {
        var x = rng.NextDouble() * cumulative[^1];
        var i = Array.BinarySearch(cumulative, x);
        return Math.Min(i < 0 ? ~i : i, cumulative.Length - 1);
    }

    internal static double[] Cumulative(int n)
    {
        var table = new double[Math.Max(1, n)];
        var sum = 0.0;
        for (var k = 0; k < table.Length; k++)
        {
            sum += 1.0 / (k + 1);
            table[k] = sum;
        }
        return table;
    }

    /// <summary>Reads the place list (pages of 100) and the slot times of the first place's coming week.</summary>
    public static async Task<Catalog> LoadAsync(HttpClient client, Uri target, SimulationOptions options, CancellationToken ct)
    {
        var places = new List<PlaceItem>();
        for (var page = 1; places.Count < options.MaxPlaces && page <= 1000; page++)
        {
            var batch = await client.GetFromJsonAsync(new Uri(target, $"/api/places?page={page}&pageSize=100"), WireJson.Default.PlacePage, ct)
                ?? throw new InvalidOperationException("GET /api/places answered no body.");
            places.AddRange(batch.Items.Where(p => p.Active));
            if (batch.Items.Count < 100 || places.Count >= batch.Total)
            {
                break;
            }
        }
        places = places.Take(options.MaxPlaces).OrderBy(p => p.Id).ToList();
        if (places.Count == 0)
        {
            throw new InvalidOperationException("The API lists no active place: seed data first.");
        }
        var zone = TimeZoneInfo.FindSystemTimeZoneById(places[0].TimeZone);
        var today = DateOnly.FromDateTime(TimeZoneInfo.ConvertTime(DateTimeOffset.UtcNow, zone).DateTime);
        var week = await client.GetFromJsonAsync(
            new Uri(target, $"/api/places/{places[0].Id}/availability?from={Day(today.AddDays(1))}&to={Day(today.AddDays(7))}"),
            WireJson.Default.AvailabilityBody, ct) ?? throw new InvalidOperationException("GET availability answered no body.");
        var times = week.Days.SelectMany(d => d.Slots).Select(s => s.Time).Distinct(StringComparer.Ordinal).Order(StringComparer.Ordinal).ToList();
        return new Catalog(places, times, today, options.HotPlaces, options.HotDays, options.HotShare);
    }
}
