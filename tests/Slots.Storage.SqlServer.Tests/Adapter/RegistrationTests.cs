using System.Collections.Concurrent;
using Microsoft.Data.SqlClient;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Slots.Admission;
using Slots.Catalogue;
using Slots.Hosting;
using Slots.Idempotency;
using Slots.Places;
using Slots.Reminders;
using Slots.Reservations;
using Slots.Retention;
using Slots.Scheduling;
using Slots.Sms;
using Slots.Staff;
using Slots.Storage;
using Slots.Storage.Ef;
using Slots.Storage.Ef.Retention;
using Slots.Storage.SqlServer;
using Slots.Window;

namespace Slots.Storage.SqlServer.Tests.Adapter;

/// <summary>
/// With Provider = SqlServer every service the API and the scheduler use resolves: the hot seats,
/// the cold path, the catalogue and the window to the SqlClient side over the procs, the features
/// beside them (retention, wrong proofs, reminders, staff) to the shared EF Core store on SQL Server's provider. Nothing here
/// connects: resolving a service opens no connection.
/// </summary>
public sealed class RegistrationTests
{
    private static IHost Build(ILoggerProvider? logs = null, Dictionary<string, string?>? settings = null)
    {
        var builder = Host.CreateApplicationBuilder(new HostApplicationBuilderSettings { DisableDefaults = true });
        builder.Configuration.AddInMemoryCollection(new Dictionary<string, string?>
        {
            ["Slots:Storage:Provider"] = "SqlServer",
            ["ConnectionStrings:Slots"] = "Server=127.0.0.1,1;Database=slots;User Id=sa;Password=unused;Connect Timeout=1",
        });
        builder.Configuration.AddInMemoryCollection(settings ?? []);
        if (logs is not null)
        {
            builder.Logging.AddProvider(logs);
        }
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
    [InlineData(typeof(SqlServerBatcher))]
    [InlineData(typeof(Slots.Retention.PersonalDataRetention))]
    public void Every_feature_resolves_on_SQL_Server(Type service)
    {
        using var host = Build();
        using var scope = host.Services.CreateScope();

        Assert.NotNull(scope.ServiceProvider.GetRequiredService(service));
    }

    [Fact]
    public void The_site_staff_service_resolves_on_SQL_Server()
    {
        // The door hashes a national id typed there, so the service needs the persons secret.
        using var host = Build(settings: new() { ["Slots:Persons:HmacSecret"] = "a-test-secret-of-32-characters!!" });
        using var scope = host.Services.CreateScope();

        Assert.NotNull(scope.ServiceProvider.GetRequiredService<StaffService>());
    }

    [Theory]
    [InlineData(typeof(IReservationStore), typeof(SqlServerReservationStore))]
    [InlineData(typeof(ICatalogStore), typeof(SqlServerCatalogStore))]
    [InlineData(typeof(IColdReservationStore), typeof(SqlServerColdReservationStore))]
    [InlineData(typeof(IWindowSync), typeof(SqlServerWindowSync))]
    [InlineData(typeof(IAdmissionStore), typeof(SqlServerAdmissionStore))]
    [InlineData(typeof(IStaffStore), typeof(SqlServerStaffStore))]
    public void Each_port_is_the_SqlClient_adapter(Type port, Type adapter)
    {
        using var host = Build();
        using var scope = host.Services.CreateScope();

        Assert.IsType(adapter, scope.ServiceProvider.GetRequiredService(port));
    }

    [Fact]
    public async Task A_reservation_goes_to_the_database_through_the_batcher()
    {
        var logs = new RecordingLoggerProvider();
        using var host = Build(logs);
        var store = host.Services.GetRequiredService<IReservationStore>();
        var command = new ReserveCommand(new SlotKey(1, new DateOnly(2099, 1, 1), 600), "person", "+421900000001", "Test Person", "en",
            ConfirmationCode.New(), "key", "fp", DateTimeOffset.UnixEpoch);

        // No server listens there: the batch fails, and the batcher is the one that says so.
        await Assert.ThrowsAnyAsync<SqlException>(() => store.ReserveAsync(command, TestContext.Current.CancellationToken).AsTask());

        Assert.Contains((typeof(SqlServerBatcher).FullName!, 2201), logs.Events);
    }

    [Theory]
    [InlineData("Writers", "0")]
    [InlineData("MaxBatch", "10001")]
    public void Batch_options_out_of_range_are_refused_at_start(string key, string value)
    {
        var error = Assert.Throws<InvalidOperationException>(() => Build(settings: new() { [$"{SqlServerBatchOptions.Section}:{key}"] = value }));

        Assert.Contains(SqlServerBatchOptions.Section, error.Message);
    }

    [Fact]
    public void The_shared_EF_Core_store_runs_on_SQL_Servers_provider_and_the_hot_seats_stay_on_the_procs()
    {
        using var host = Build();
        using var scope = host.Services.CreateScope();

        Assert.True(scope.ServiceProvider.GetRequiredService<SlotsDbContext>().Database.IsSqlServer());
        Assert.IsType<EfPersonalDataEraser>(scope.ServiceProvider.GetRequiredService<IPersonalDataEraser>());
        Assert.IsType<Slots.Storage.Ef.Reservations.EfWrongProofStore>(scope.ServiceProvider.GetRequiredService<IWrongProofStore>());
        Assert.IsType<Slots.Storage.Ef.Reminders.EfReminderStore>(scope.ServiceProvider.GetRequiredService<IReminderStore>());
        Assert.IsType<Slots.Storage.Ef.MachineKeys.EfMachineKeyStore>(scope.ServiceProvider.GetRequiredService<Slots.MachineKeys.IMachineKeyStore>());
        // The staff side is the shared EF Core store, its writes on the hot rows in procs (SqlServerStaffStore's overrides).
        Assert.IsAssignableFrom<Slots.Storage.Ef.Staff.EfStaffStore>(scope.ServiceProvider.GetRequiredService<IStaffStore>());
        // No EF dialect: the EF cold side (catalogue, cold path, window) is not what SQL Server runs.
        Assert.Null(scope.ServiceProvider.GetService<EfDialect>());
        Assert.IsType<SqlServerReservationStore>(scope.ServiceProvider.GetRequiredService<IReservationStore>());
    }

    /// <summary>Every log event's category and id.</summary>
    private sealed class RecordingLoggerProvider : ILoggerProvider
    {
        public ConcurrentQueue<(string Category, int EventId)> Events { get; } = new();

        public ILogger CreateLogger(string categoryName) => new Recorder(categoryName, Events);

        public void Dispose()
        {
        }

        private sealed class Recorder(string category, ConcurrentQueue<(string, int)> events) : ILogger
        {
            public IDisposable? BeginScope<TState>(TState state) where TState : notnull => null;

            public bool IsEnabled(LogLevel logLevel) => true;

            public void Log<TState>(LogLevel logLevel, EventId eventId, TState state, Exception? exception, Func<TState, Exception?, string> formatter) =>
                events.Enqueue((category, eventId.Id));
        }
    }
}
