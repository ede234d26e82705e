using Bogus;
using Slots.Catalogue;
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

    private static readonly string[] Regions =
    [
        "Bratislavský kraj", "Trnavský kraj", "Trenčiansky kraj", "Nitriansky kraj",
        "Žilinský kraj", "Banskobystrický kraj", "Prešovský kraj", "Košický kraj",
    ];

    private static readonly string[] Kinds =
    [
        "Odberové miesto", "Očkovacie centrum", "Mobilné odberové miesto", "Poliklinika", "Nemocnica",
    ];

    public async Task<DemoDataResult> CreateAsync(DemoDataRequest request, CancellationToken ct)
    {
        var faker = new Faker("sk");
        if (request.Seed is { } seed)
        {
            faker.Random = new Randomizer(seed);
        }
        var ids = new List<int>();
        for (var i = 0; i < request.Places; i++)
        {
            var city = faker.Address.City();
            var place = await catalog.CreateAsync(new NewPlace(
                $"{faker.PickRandom(Kinds)} {city} – {faker.Address.StreetName()}",
                $"{faker.Address.StreetAddress()}, {faker.Address.ZipCode("### ##")} {city}",
                faker.PickRandom(Regions),
                Zone,
                Active: true), ct);
            ids.Add(place.Id);
        }
        var today = LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(Zone), clock.GetUtcNow());
        var template = new SlotTemplate(new TimeOnly(8, 0), new TimeOnly(15, 45), 15, 15);
        var slots = await generator.GenerateAsync(
            new GenerateSlots(ids, today, today.AddDays(request.Days - 1), template, request.Capacity, DryRun: false), ct);
        return new DemoDataResult(ids.Count, slots);
    }

    public async Task<bool> IsEmptyAsync(CancellationToken ct) => !await store.AnyPlaceAsync(ct);
}
