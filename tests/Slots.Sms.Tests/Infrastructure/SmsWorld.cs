using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.DependencyInjection.Extensions;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Slots.Catalogue;
using Slots.Hosting;
using Slots.Persons;
using Slots.Places;
using Slots.Reservations;
using Slots.Sms.RabbitMq;
using Slots.Storage;
using Slots.Storage.Ef;
using Slots.Testing;
using Slots.Window;

namespace Slots.Sms.Tests.Infrastructure;

public enum Backend
{
    Sqlite,
    Postgres,
}

/// <summary>
/// The scheduler side of Slots as the tests need it: a host (not started) with the domain, a real
/// database (a SQLite file, or a fresh database on the shared PostgreSQL server), SMS registered
/// as the scheduler registers it, one place with slots from tomorrow on, and a way to book.
/// </summary>
public sealed class SmsWorld : IAsyncDisposable
{
    public const string Zone = "Europe/Bratislava";
    private static int _people;

    private readonly IHost _host;
    private readonly string? _folder;
    private readonly List<SmsConsumer> _consumers = [];

    private SmsWorld(IHost host, string? folder, string queue)
    {
        _host = host;
        _folder = folder;
        Queue = queue;
    }

    public IServiceProvider Services => _host.Services;
    public string Queue { get; }

    /// <summary>What the host logged at warning and above.</summary>
    public RecordedLog Log { get; private init; } = new();
    public int PlaceId { get; private set; }
    public string PlaceName { get; private set; } = "";
    public DateOnly FirstDay { get; private set; }
    public OutboxRelay Relay => Services.GetRequiredService<OutboxRelay>();
    public RelayOutboxJob Job => Services.GetRequiredService<RelayOutboxJob>();

    public static async Task<SmsWorld> StartAsync(
        Backend backend,
        string? rabbitUri,
        SmsSender? sender,
        IReadOnlyDictionary<string, string?>? settings = null,
        int capacity = 10,
        Func<ISmsStore, ISmsStore>? wrapStore = null,
        Func<IOutboxTransport, IOutboxTransport>? wrapTransport = null,
        TimeProvider? clock = null)
    {
        var queue = $"sms-test-{Guid.NewGuid():N}";
        var config = new Dictionary<string, string?>
        {
            ["Slots:Persons:HmacSecret"] = "test-secret-of-enough-length",
            ["Slots:Sms:Queue"] = queue,
            ["Slots:Sms:MessagesPerSecond"] = "100000",
            ["Slots:Sms:ReconnectMaxDelay"] = "00:00:01",
        };
        string? folder = null;
        if (backend == Backend.Sqlite)
        {
            folder = Directory.CreateTempSubdirectory("slots-sms-").FullName;
            config["Slots:Storage:Provider"] = "Sqlite";
            config["ConnectionStrings:Slots"] = $"Data Source={Path.Combine(folder, "slots.db")}";
        }
        else
        {
            var server = await PostgresServer.SharedAsync();
            config["Slots:Storage:Provider"] = "Postgres";
            config["ConnectionStrings:Slots"] = await server.CreateDatabaseAsync($"sms_{Guid.NewGuid():N}", CancellationToken.None);
        }
        if (rabbitUri is not null)
        {
            config["ConnectionStrings:RabbitMq"] = rabbitUri;
        }
        foreach (var (key, value) in settings ?? new Dictionary<string, string?>())
        {
            config[key] = value;
        }

        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings
        {
            EnvironmentName = "Testing",
            ContentRootPath = folder ?? Path.GetTempPath(),
            DisableDefaults = true,
        });
        builder.Configuration.AddInMemoryCollection(config);
        var log = new RecordedLog();
        builder.Services.AddLogging(logging => logging.AddProvider(log));
        builder.Services.AddMetrics();
        builder.AddSlotsDomain();
        builder.AddSlotsStorage();
        builder.AddSlotsSms();
        if (clock is not null)
        {
            builder.Services.RemoveAll<TimeProvider>();
            builder.Services.AddSingleton(clock);
        }
        if (sender is not null)
        {
            builder.Services.RemoveAll<SmsSender>();
            builder.Services.AddSingleton(sender);
        }
        if (wrapStore is not null)
        {
            // The backend's own store, built as its registration would, behind the test's decorator.
            var backendStore = builder.Services.Last(d => d.ServiceType == typeof(ISmsStore)).ImplementationType!;
            builder.Services.RemoveAll<ISmsStore>();
            builder.Services.AddSingleton(sp => wrapStore((ISmsStore)ActivatorUtilities.CreateInstance(sp, backendStore)));
        }
        if (wrapTransport is not null)
        {
            // The transport the registration chose, built as it would be, behind the test's decorator.
            var chosen = builder.Services.Last(d => d.ServiceType == typeof(IOutboxTransport));
            builder.Services.RemoveAll<IOutboxTransport>();
            builder.Services.AddSingleton(sp => wrapTransport((IOutboxTransport)(chosen.ImplementationInstance
                ?? chosen.ImplementationFactory?.Invoke(sp)
                ?? ActivatorUtilities.CreateInstance(sp, chosen.ImplementationType!))));
        }
        var world = new SmsWorld(builder.Build(), folder, queue) { Log = log };
        await world.SeedAsync(capacity);
        return world;
    }

    private async Task SeedAsync(int capacity)
    {
        await Services.GetRequiredService<ISchemaMigrator>().MigrateAsync(CancellationToken.None);
        await using var scope = Services.CreateAsyncScope();
        var catalog = scope.ServiceProvider.GetRequiredService<PlaceCatalog>();
        PlaceName = "Odberové miesto Test";
        var place = await catalog.CreateAsync(new NewPlace(PlaceName, "Hlavná 1, Bratislava", "Bratislavský kraj", Zone, Active: true), CancellationToken.None);
        PlaceId = place.Id;
        FirstDay = LocalClock.Today(TimeZoneInfo.FindSystemTimeZoneById(Zone), DateTimeOffset.UtcNow).AddDays(1);
        var template = new SlotTemplate(new TimeOnly(8, 0), new TimeOnly(15, 45), 15, 15);
        await scope.ServiceProvider.GetRequiredService<SlotGenerator>().GenerateAsync(
            new GenerateSlots([place.Id], FirstDay, FirstDay.AddDays(3), template, capacity, DryRun: false), CancellationToken.None);
    }

    /// <summary>The i-th seat-holding slot: 32 slots a day from 08:00, <c>perSlot</c> bookings each.</summary>
    public SlotKey Slot(int i, int perSlot) => new(PlaceId, FirstDay.AddDays(i / perSlot / 32), 8 * 60 + (i / perSlot % 32 * 15));

    /// <summary>Books for a new person; returns the answer and the person's phone.</summary>
    public async Task<(BookingAnswer Answer, string Phone)> BookAsync(SlotKey slot, string language = "sk")
    {
        var n = Interlocked.Increment(ref _people);
        var phone = $"+4219{n % 100_000_000:00000000}";
        var persons = Services.GetRequiredService<PersonIdentity>();
        var request = new BookingRequest(slot, $"Person {n}", phone, persons.Hash($"ID{n:00000000}"), language);
        return (await Services.GetRequiredService<ReservationService>().ReserveAsync(request, $"key-{Guid.NewGuid():N}", CancellationToken.None), phone);
    }

    public async Task<BookingAnswer> ReserveAsync(SlotKey slot, string language = "sk") => (await BookAsync(slot, language)).Answer;

    public ReservationService Reservations => Services.GetRequiredService<ReservationService>();

    /// <summary>Books <paramref name="count"/> seats at once (a burst); returns the codes.</summary>
    public async Task<IReadOnlyList<string>> BurstAsync(int count, int offset = 0, int perSlot = 10)
    {
        var answers = await Task.WhenAll(Enumerable.Range(offset, count).Select(i => Task.Run(() => ReserveAsync(Slot(i, perSlot)))));
        Assert.All(answers, a => Assert.Equal(ReservationStatus.Reserved, a.Status));
        return answers.Select(a => a.Code!).ToList();
    }

    public async Task<T> WithDbAsync<T>(Func<SlotsDbContext, Task<T>> query)
    {
        await using var scope = Services.CreateAsyncScope();
        return await query(scope.ServiceProvider.GetRequiredService<SlotsDbContext>());
    }

    /// <summary>
    /// The id of every SMS message the database holds: the outbox's rows and the confirmations new bookings carry on
    /// their hot reservation rows (event_id), on PostgreSQL and SQLite alike.
    /// </summary>
    public Task<List<long>> MessageIdsAsync() => WithDbAsync(db => db.Database.SqlQueryRaw<long>("""
        SELECT id AS "Value" FROM outbox UNION ALL SELECT event_id FROM hot_reservations WHERE event_id IS NOT NULL
        """).ToListAsync());

    /// <summary>
    /// Every SMS unsent again, wherever it waits: what the database holds when the relay died after the broker's confirms.
    /// How many were marked sent before.
    /// </summary>
    public Task<int> ForgetEverySendAsync() => WithDbAsync(async db =>
        await db.Database.ExecuteSqlRawAsync("UPDATE outbox SET sent_at = NULL WHERE sent_at IS NOT NULL")
        + await db.Database.ExecuteSqlRawAsync("UPDATE hot_reservations SET sms_pending = (event_id IS NOT NULL) WHERE event_id IS NOT NULL AND NOT sms_pending"));

    /// <summary>
    /// SMS not yet handed to the queue, as the relay sees them: a new booking's confirmation waits on
    /// its hot reservation row, not in the outbox table.
    /// </summary>
    public async Task<IReadOnlyList<OutboxRow>> UnsentRowsAsync()
    {
        await using var scope = Services.CreateAsyncScope();
        return await scope.ServiceProvider.GetRequiredService<ISmsStore>().ReadUnsentAsync(int.MaxValue, CancellationToken.None);
    }

    public async Task<int> UnsentAsync() => (await UnsentRowsAsync()).Count;

    /// <summary>A fresh SMS consumer, started; stopped with the world unless the test stops it first.</summary>
    public async Task<SmsConsumer> StartConsumerAsync()
    {
        var consumer = ActivatorUtilities.CreateInstance<SmsConsumer>(Services);
        _consumers.Add(consumer);
        await consumer.StartAsync(CancellationToken.None);
        await consumer.Consuming.WaitAsync(TimeSpan.FromSeconds(30));
        return consumer;
    }

    /// <summary>Runs the relay job until the outbox is empty (bounded).</summary>
    public async Task DrainAsync(TimeSpan timeout)
    {
        var limit = DateTime.UtcNow + timeout;
        while (await UnsentAsync() > 0)
        {
            Assert.True(DateTime.UtcNow < limit, "the outbox did not drain in time");
            if (await Job.DrainAsync(CancellationToken.None) == 0)
            {
                await Task.Delay(100);
            }
        }
    }

    public async ValueTask DisposeAsync()
    {
        foreach (var consumer in _consumers)
        {
            await consumer.StopAsync(CancellationToken.None);
            consumer.Dispose();
        }
        if (Services.GetService<RabbitMqRelayTransport>() is { } transport)
        {
            await transport.DisposeAsync();
        }
        _host.Dispose();
        Microsoft.Data.Sqlite.SqliteConnection.ClearAllPools();
        if (_folder is not null)
        {
            try
            {
                Directory.Delete(_folder, recursive: true);
            }
            catch (IOException)
            {
            }
        }
    }
}
