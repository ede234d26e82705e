using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Slots.Api.Tests.Campaign;
using Slots.Catalogue;
using Slots.Hosting.Health;
using Slots.Places;

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
}
