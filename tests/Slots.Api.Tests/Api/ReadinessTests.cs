using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Slots.Api.Tests.Campaign;
using Slots.Catalogue;
using Slots.Hosting.Health;
using Slots.Places;
using Slots.Reservations;

namespace Slots.Api.Tests.Api;

/// <summary>Readiness: an instance is sent readers once its places and services copies are in memory.</summary>
public sealed class ReadinessTests
{
    // An instance started in a stampede sent its first readers straight into the copies' first load, which
    // waited among the bookings: kept availability answers took 2.5 s at p99 at the server.
    [Fact]
    public async Task Ready_loads_the_places_and_services_copies_so_the_first_reader_finds_them()
    {
        var ct = TestContext.Current.CancellationToken;
        var store = new CatalogueReads([new ServiceInfo(ServiceIds.Default, ServiceIds.DefaultCode, "Termín", "Appointment", null, true)],
            [new PlaceOffer(1, ServiceIds.Default, 4, null, true)],
            [new Place { Id = 1, Name = "Hlavná", Address = "Hlavná 1", Region = "Košický kraj", TimeZone = "Europe/Bratislava" }]);
        var services = new ServiceCollection().AddSingleton<ICatalogStore>(store).BuildServiceProvider();
        var scopes = services.GetRequiredService<IServiceScopeFactory>();
        var places = new PlaceDirectory(scopes, TimeProvider.System);
        var offered = new ServiceDirectory(scopes, TimeProvider.System);
        var check = new HealthProbes.CatalogueHealthCheck(places, offered);

        var result = await check.CheckHealthAsync(new HealthCheckContext(), ct);

        Assert.Equal(HealthStatus.Healthy, result.Status);
        Assert.Equal((1, 1), (store.PlaceLoads, store.Loads));
        Assert.NotNull(await places.FindAsync(1, ct));
        Assert.Single(await offered.OfferedAtAsync(1, ct));
        Assert.Equal((1, 1), (store.PlaceLoads, store.Loads)); // the readers loaded nothing
    }

    [Fact]
    public async Task A_catalogue_the_database_does_not_give_within_its_time_is_not_ready()
    {
        var ct = TestContext.Current.CancellationToken;
        var store = new CatalogueReads([], [], [])
        {
            Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously), // the services never come
        };
        var services = new ServiceCollection().AddSingleton<ICatalogStore>(store).BuildServiceProvider();
        var scopes = services.GetRequiredService<IServiceScopeFactory>();
        var check = new HealthProbes.CatalogueHealthCheck(new PlaceDirectory(scopes, TimeProvider.System), new ServiceDirectory(scopes, TimeProvider.System));

        var result = await check.CheckHealthAsync(new HealthCheckContext(), ct); // given up after its 5 s

        Assert.Equal(HealthStatus.Unhealthy, result.Status);
    }

    // In a stampede on one CPU the probe's own query waited behind the bookings, for the pool and the CPU, past HAProxy's
    // 1 s check timeout: HAProxy took instances that were answering out of rotation, once both at once (503 to everyone).
    [Fact]
    public async Task While_the_database_answers_the_instances_requests_readiness_does_not_wait_for_a_ping_of_its_own()
    {
        var ct = TestContext.Current.CancellationToken;
        var backend = new Backend { PingGate = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously) };
        var (store, check) = Witnessed(backend);

        await store.ReserveAsync(Command(), ct);
        var result = await check.CheckHealthAsync(new HealthCheckContext(), ct);

        Assert.Equal(HealthStatus.Healthy, result.Status);
        Assert.Equal(0, backend.Pings);
    }

    [Fact]
    public async Task Without_a_recent_answer_readiness_asks_the_database_and_a_failed_request_is_no_answer()
    {
        var ct = TestContext.Current.CancellationToken;
        var backend = new Backend { Fails = true };
        var (store, check) = Witnessed(backend);

        await Assert.ThrowsAsync<TimeoutException>(() => store.ReserveAsync(Command(), ct).AsTask());
        var down = await check.CheckHealthAsync(new HealthCheckContext(), ct);
        backend.PingAnswers = true;
        var up = await check.CheckHealthAsync(new HealthCheckContext(), ct);

        Assert.Equal((HealthStatus.Unhealthy, HealthStatus.Healthy), (down.Status, up.Status));
        Assert.Equal(2, backend.Pings);
    }

    [Fact]
    public void The_witnessed_store_keeps_what_the_backend_decides_itself()
    {
        var (store, _) = Witnessed(new Backend());

        Assert.False(store.DecidesEligibility);
        Assert.Same(Backend.Streamed, store.EveryPlace(default, default));
    }

    private static (IReservationStore Store, HealthProbes.DatabaseHealthCheck Check) Witnessed(Backend backend)
    {
        var services = new ServiceCollection().AddSingleton(TimeProvider.System).AddSingleton<IReservationStore>(backend);
        DatabaseWitness.Witness(services);
        var provider = services.BuildServiceProvider();
        var store = provider.GetRequiredService<IReservationStore>();
        return (store, new HealthProbes.DatabaseHealthCheck(store, provider.GetRequiredService<DatabaseWitness>()));
    }

    private static ReserveCommand Command() =>
        new(new SlotKey(1, new DateOnly(2099, 1, 1), 600), "person", "+421900000001", "Test Person", "en", "CODE", "key", "fp", DateTimeOffset.UnixEpoch);

    /// <summary>A backend that books at once (or fails), pings as told, and decides no eligibility of its own.</summary>
    private sealed class Backend : IReservationStore
    {
        public static readonly IAsyncEnumerable<SlotAvailability> Streamed = AsyncEnumerable.Empty<SlotAvailability>();

        public bool Fails { get; init; }

        public bool PingAnswers { get; set; }

        public TaskCompletionSource<bool>? PingGate { get; init; }

        public int Pings { get; private set; }

        public bool DecidesEligibility => false;

        public IAsyncEnumerable<SlotAvailability>? EveryPlace(DateOnly from, DateOnly to) => Streamed;

        public ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct) =>
            Fails ? ValueTask.FromException<ReserveResult?>(new TimeoutException()) : ValueTask.FromResult<ReserveResult?>(null);

        public async Task<bool> PingAsync(CancellationToken ct)
        {
            Pings++;
            return PingGate is { } gate ? await gate.Task.WaitAsync(ct) : PingAnswers;
        }

        public ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct) => throw new NotSupportedException();

        public ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct) => throw new NotSupportedException();

        public Task<ReservationDetails?> FindAsync(string code, CancellationToken ct) => throw new NotSupportedException();

        public Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct) =>
            throw new NotSupportedException();
    }
}
