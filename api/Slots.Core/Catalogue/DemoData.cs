using Bogus;
using Slots.Places;
using Slots.Storage;
using Slots.Window;

namespace Slots.Catalogue;

public sealed record DemoDataRequest(int Places, int Days, int Capacity, int? Seed);

public sealed record DemoDataResult(int PlacesCreated, GenerateSlotsResult Slots);

/// <summary>Believable test sites with a fixed seed, and slots for them, for trying Slots out.</summary>
public sealed class DemoData(ICatalogStore store, PlaceCatalog catalog, SlotGenerator generator, TimeProvider clock)
{
    private const string Zone = "Europe/Bratislava";

    // Streets found in nearly every Slovak town, so any of them is believable in any town.
    private static readonly string[] Streets =
    [
        "Hlavná", "Nemocničná", "Štúrova", "Hviezdoslavova", "Kollárova", "Komenského", "Školská", "Záhradná",
        "Jesenského", "Bernolákova", "Mierová", "Partizánska", "Sládkovičova", "Hurbanova", "Dukelská",
        "Železničná", "Družstevná", "Poštová", "Tehelná", "Štefánikova",
    ];

    private static readonly SlotTemplate Weekday = new(new TimeOnly(8, 0), new TimeOnly(15, 45), 15, 15);

    // Short Saturday hours: the last slot ends at noon.
    private static readonly SlotTemplate Saturday = new(new TimeOnly(8, 0), new TimeOnly(11, 45), 15, 15);

    public async Task<DemoDataResult> CreateAsync(DemoDataRequest request, CancellationToken ct)
    {
        var random = request.Seed is { } seed ? new Randomizer(seed) : new Randomizer();
        var names = new HashSet<string>(StringComparer.Ordinal);
        var ids = new List<int>();
        for (var i = 0; i < request.Places; i++)
        {
            var place = await catalog.CreateAsync(PickPlace(random, names), ct);
            ids.Add(place.Id);
        }
        var today = LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(Zone), clock.GetUtcNow());
        var slots = new GenerateSlotsResult(ids.Count, 0, 0, 0, 0);
        foreach (var (from, to, template) in OpeningRuns(today, request.Days))
        {
            var run = await generator.GenerateAsync(new GenerateSlots(ids, from, to, template, request.Capacity, DryRun: false), ct);
            slots = slots with
            {
                SlotsCreated = slots.SlotsCreated + run.SlotsCreated,
                SlotsExisting = slots.SlotsExisting + run.SlotsExisting,
                SeatsCreated = slots.SeatsCreated + run.SeatsCreated,
                SeatsInWindowSlots = slots.SeatsInWindowSlots + run.SeatsInWindowSlots,
            };
        }
        return new DemoDataResult(ids.Count, slots);
    }

    public async Task<bool> IsEmptyAsync(CancellationToken ct) => !await store.AnyPlaceAsync(ct);

    /// <summary>
    /// A hospital, polyclinic or vaccination centre in a real town; the street a polyclinic or centre
    /// is named after is the one it stands on. Names stay unique while the combinations last.
    /// </summary>
    private static NewPlace PickPlace(Randomizer random, HashSet<string> names)
    {
        for (var attempt = 0; ; attempt++)
        {
            var town = DemoTowns.All[random.Number(DemoTowns.All.Count - 1)];
            var street = random.ArrayElement(Streets);
            var kinds = town.Hospital ? 3 : 2;
            var name = random.Number(kinds - 1) switch
            {
                0 => $"Poliklinika {street}, {town.Name}",
                1 => $"Očkovacie centrum {street}, {town.Name}",
                _ => $"Nemocnica {town.Name}",
            };
            if (names.Add(name) || attempt >= 100)
            {
                var address = $"{street} {random.Number(1, 80)}, {town.PostalCode} {town.Name}";
                return new NewPlace(name, address, town.Region, Zone, Active: true);
            }
        }
    }

    /// <summary>The demo days cut into runs of equal opening hours: weekdays full, Saturday short, Sunday closed.</summary>
    private static IEnumerable<(DateOnly From, DateOnly To, SlotTemplate Template)> OpeningRuns(DateOnly first, int days)
    {
        (DateOnly From, DateOnly To, SlotTemplate Template)? run = null;
        for (var day = first; day < first.AddDays(days); day = day.AddDays(1))
        {
            var template = OpeningHours(day.DayOfWeek);
            if (run is { } open && (template != open.Template || template is null))
            {
                yield return open;
                run = null;
            }
            if (template is not null)
            {
                run = run is { } same ? same with { To = day } : (day, day, template);
            }
        }
        if (run is { } last)
        {
            yield return last;
        }
    }

    private static SlotTemplate? OpeningHours(DayOfWeek day) => day switch
    {
        DayOfWeek.Sunday => null,
        DayOfWeek.Saturday => Saturday,
        _ => Weekday,
    };
}
