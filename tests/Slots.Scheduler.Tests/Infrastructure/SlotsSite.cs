using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Slots.Catalogue;
using Slots.Hosting;
using Slots.Idempotency;
using Slots.Places;
using Slots.Reservations;
using Slots.Scheduling;
using Slots.Storage;
using Slots.Storage.Ef;
using Slots.Window;

namespace Slots.Scheduler.Tests.Infrastructure;

/// <summary>
/// The domain as the API and the scheduler host wire it (AddSlotsDomain, AddSlotsStorage,
/// AddSlotsScheduling), on a real database, with the test's clock instead of the system's.
/// No Quartz here: tests call the jobs' operations directly, at the moments they choose.
/// </summary>
public sealed class SlotsSite : IAsyncDisposable
{
    private readonly IHost _host;
    private int _people;

    private SlotsSite(IHost host, TestClock clock)
    {
        _host = host;
        Clock = clock;
    }

    public TestClock Clock { get; }

    public IServiceProvider Services => _host.Services;

    public ReservationService Reservations => Services.GetRequiredService<ReservationService>();

    public static async Task<SlotsSite> StartAsync(string backend, TestClock clock, IDictionary<string, string?>? extra = null)
    {
        var settings = await Backend.CreateAsync(backend);
        settings["Slots:Persons:HmacSecret"] = "test-secret-of-enough-length";
        settings["Slots:Scheduler:InProcess"] = "false";
        foreach (var (key, value) in extra ?? new Dictionary<string, string?>())
        {
            settings[key] = value;
        }
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings
        {
            EnvironmentName = "Testing",
            ContentRootPath = AppContext.BaseDirectory,
        });
        builder.Configuration.AddInMemoryCollection(settings);
        builder.AddSlotsDomain();
        builder.AddSlotsStorage();
        builder.AddSlotsScheduling();
        builder.Services.AddSingleton<TimeProvider>(clock);
        var host = builder.Build();
        await host.Services.GetRequiredService<ISchemaMigrator>().MigrateAsync(CancellationToken.None);
        return new SlotsSite(host, clock);
    }

    /// <summary>A place with slots every 30 minutes from 08:00 to 11:30 (8 a day) on [from, to].</summary>
    public async Task<int> CreatePlaceAsync(DateOnly from, DateOnly to, int capacity, string timeZone = "Europe/Bratislava",
        TimeOnly? first = null, TimeOnly? last = null)
    {
        await using var scope = Services.CreateAsyncScope();
        var place = await scope.ServiceProvider.GetRequiredService<PlaceCatalog>().CreateAsync(
            new NewPlace("Site " + Guid.NewGuid().ToString("N")[..6], "Street 1", "Region", timeZone, true), CancellationToken.None);
        await scope.ServiceProvider.GetRequiredService<SlotGenerator>().GenerateAsync(new GenerateSlots(
            [place.Id], from, to, new SlotTemplate(first ?? new TimeOnly(8, 0), last ?? new TimeOnly(11, 30), 30, 30), capacity, DryRun: false),
            CancellationToken.None);
        return place.Id;
    }

    /// <summary>A new person (own id hash and phone) books the slot; returns the answer.</summary>
    public Task<BookingAnswer> ReserveAsync(int placeId, DateOnly day, int minute, int? person = null)
    {
        var n = person ?? Interlocked.Increment(ref _people);
        return Reservations.ReserveAsync(
            new BookingRequest(new SlotKey(placeId, day, minute), $"Person {n}", Phone(n), $"person-hash-{n:D8}", "sk"),
            Guid.NewGuid().ToString(), CancellationToken.None);
    }

    public static string Phone(int person) => $"+4219{person:D8}";

    public Task<CancelStatus> CancelAsync(string code, int person) =>
        Reservations.CancelAsync(code, new ContactProof(Phone(person), null), CancellationToken.None);

    public async Task<RescheduleStatus> RescheduleAsync(string code, int person, SlotKey target) =>
        (await Reservations.RescheduleAsync(code, new ContactProof(Phone(person), null), target, CancellationToken.None)).Status;

    public int NextPerson() => Interlocked.Increment(ref _people);

    /// <summary>Runs one window operation in its own scope, as a job run does.</summary>
    public async Task<T> SyncAsync<T>(Func<IWindowSync, Task<T>> operation)
    {
        await using var scope = Services.CreateAsyncScope();
        return await operation(scope.ServiceProvider.GetRequiredService<IWindowSync>());
    }

    public async Task<int> PurgeIdempotencyAsync(DateTimeOffset before)
    {
        await using var scope = Services.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<IIdempotencyPurge>().PurgeAsync(before, CancellationToken.None);
    }

    public async Task<T> DbAsync<T>(Func<SlotsDbContext, Task<T>> query)
    {
        await using var scope = Services.CreateAsyncScope();
        return await query(scope.ServiceProvider.GetRequiredService<SlotsDbContext>());
    }

    /// <summary>Active reservations on disk, as (code, place, day, minute, seat).</summary>
    public Task<List<(string, int, DateOnly, int, int)>> DiskActiveAsync() => DbAsync(async db =>
        (await db.Reservations.AsNoTracking().Where(r => r.CancelledAt == null).ToListAsync())
            .Select(r => (r.Code, r.PlaceId, r.Day, r.StartMinute, r.SeatNo)).Order().ToList());

    /// <summary>Hot reservations, as (code, place, day, minute, seat).</summary>
    public Task<List<(string, int, DateOnly, int, int)>> HotAsync() => DbAsync(async db =>
        (await db.HotReservations.AsNoTracking().ToListAsync())
            .Select(r => (r.Code, r.PlaceId, r.Day, r.StartMinute, r.SeatNo)).Order().ToList());

    public async ValueTask DisposeAsync()
    {
        if (_host is IAsyncDisposable disposable)
        {
            await disposable.DisposeAsync();
        }
        else
        {
            _host.Dispose();
        }
    }
}
