using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Slots.Catalogue;
using Slots.Hosting;
using Slots.Idempotency;
using Slots.Places;
using Slots.Reservations;
using Slots.Scheduling;
using Slots.Sms;
using Slots.Storage;
using Slots.Storage.Ef;
using Slots.Storage.SqlServer;
using Slots.WaitingRoom;
using Slots.Window;

namespace Slots.SqlServer.Tests.Adapter;

/// <summary>
/// With Provider = SqlServer every service the API and the scheduler use resolves to the SqlClient
/// side, and none needs EF Core (whose SQL Server provider is not in this build). Nothing here
/// connects: resolving a service opens no connection.
/// </summary>
public sealed class RegistrationTests
{
    private static IHost Build()
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Slots:Storage:Provider"] = "SqlServer",
            ["ConnectionStrings:Slots"] = "Server=127.0.0.1,1;Database=slots;User Id=sa;Password=unused;Connect Timeout=1",
        });
        builder.AddSlotsDomain();
        builder.AddSlotsStorage();
        builder.AddSlotsScheduling();
        return builder.Build();
    }

    [Theory]
    [InlineData(typeof(ReservationService))]
    [InlineData(typeof(PlaceCatalog))]
    [InlineData(typeof(PlaceDirectory))]
    [InlineData(typeof(SlotGenerator))]
    [InlineData(typeof(DemoData))]
    [InlineData(typeof(IWindowSync))]
    [InlineData(typeof(IJobRunLog))]
    [InlineData(typeof(IIdempotencyPurge))]
    [InlineData(typeof(ISmsStore))]
    [InlineData(typeof(ServingCounter))]
    public void Every_feature_resolves_on_SQL_Server(Type service)
    {
        using var host = Build();
        using var scope = host.Services.CreateScope();

        Assert.NotNull(scope.ServiceProvider.GetRequiredService(service));
    }

    [Theory]
    [InlineData(typeof(IReservationStore), typeof(SqlServerReservationStore))]
    [InlineData(typeof(ICatalogStore), typeof(SqlServerCatalogStore))]
    [InlineData(typeof(IColdReservationStore), typeof(SqlServerColdReservationStore))]
    [InlineData(typeof(IWindowSync), typeof(SqlServerWindowSync))]
    [InlineData(typeof(IWaitingRoomStore), typeof(SqlServerWaitingRoomStore))]
    public void Each_port_is_the_SqlClient_adapter(Type port, Type adapter)
    {
        using var host = Build();
        using var scope = host.Services.CreateScope();

        Assert.IsType(adapter, scope.ServiceProvider.GetRequiredService(port));
    }

    [Fact]
    public void No_EF_Core_context_is_registered()
    {
        using var host = Build();

        Assert.Null(host.Services.GetService<SlotsDbContext>());
    }
}
