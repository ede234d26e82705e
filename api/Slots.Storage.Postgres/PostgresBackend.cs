using System.Data.Common;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Npgsql;
using Quartz;
using Slots.Admission;
using Slots.Reservations;
using Slots.Sms;
using Slots.Staff;
using Slots.Storage.Ef;
using Slots.Storage.Postgres.Staff;
using Slots.WaitingList;

namespace Slots.Storage.Postgres;

/// <summary>PostgreSQL: the hot path through one pooled NpgsqlDataSource, the cold side through EF Core, Quartz clustered on the same database.</summary>
public sealed class PostgresBackend : StorageBackend
{
    /// <summary>Connections one process may hold when the connection string names no Maximum Pool Size.</summary>
    public const int DefaultMaxPoolSize = 20;

    /// <summary>Statements each connection keeps prepared when the connection string names no Max Auto Prepare.</summary>
    public const int DefaultMaxAutoPrepare = 64;

    public override StorageProvider Provider => StorageProvider.Postgres;

    public override bool Embedded => false;

    public override void UseJobStore(IPersistentStoreBuilder store, string connectionString) =>
        store.UsePostgres(connectionString);

    public override void Register(IHostApplicationBuilder builder, StorageOptions options)
    {
        var connectionString = ConnectionString(builder.Configuration.GetConnectionString("Slots"));
        // The container builds and disposes the data source; every hot-path call rents from its pool.
        builder.Services.AddSingleton(_ => NpgsqlDataSource.Create(connectionString));
        builder.Services.AddSingleton(GroupCommitOptions.Read<PostgresBatchOptions>(builder.Configuration, PostgresBatchOptions.Section));
        builder.Services.AddSingleton<PostgresBatcher>();
        builder.Services.AddSingleton<IReservationStore, PostgresReservationStore>();
        builder.Services.AddSingleton<ISmsStore, PostgresSmsStore>();
        builder.Services.AddSingleton<IAdmissionStore, PostgresAdmissionStore>();
        builder.Services.AddSingleton<IStaffStore, PostgresStaffStore>();
        builder.Services.AddSingleton<IWaitingListStore, Slots.Storage.Postgres.WaitingList.PostgresWaitingListStore>();
        builder.Services.AddSingleton<ISchemaMigrator, PostgresSchema>();
        // Before the server listens: a process whose pools cannot fit max_connections does not start.
        builder.Services.AddSingleton(ConnectionBudgetOptions.Read(builder.Configuration));
        builder.Services.AddHostedService<PostgresConnectionBudget>();
        // The planner's statistics of a table that grows from empty (a campaign's first bookings) follow it within seconds.
        builder.Services.AddSingleton(StatisticsOptions.Read(builder.Configuration));
        builder.Services.AddHostedService<PostgresStatistics>();
        // EF gets the connection string, not the data source: a data source instance per host
        // would make EF build an internal service provider per host (tests start many hosts).
        builder.Services.AddEfColdSide<PostgresDialect>(connectionString);
        // Replaces the shared store (the last registration wins): a new booking's SMS lives on its hot row.
        builder.Services.AddScoped<Slots.Retention.IPersonalDataStore, Slots.Storage.Ef.Retention.EventRowPersonalDataStore>();
    }

    /// <summary>
    /// The configured string, with defaults where it names none:
    /// <list type="bullet">
    /// <item>a 5 s connect timeout: with the server gone a request should fail fast into 503 +
    /// Retry-After, not hang for Npgsql's default 15 s;</item>
    /// <item>Maximum Pool Size 20 (Npgsql's default is 100): the hot path needs only its batch
    /// writers' connections plus a few for reads, and N instances × the pool must fit the
    /// server's max_connections (checked at start: <see cref="PostgresConnectionBudget"/>);</item>
    /// <item>No Reset On Close: Slots changes no session state, so the reset Npgsql would send at
    /// every rental of a pooled connection buys nothing. Prepared statements survive either way.</item>
    /// <item>Max Auto Prepare 64: a statement a connection has run 5 times is prepared on it, so the server neither parses
    /// nor plans it again. The hot path prepares its own; this is for EF Core's (the door's check-in, the roster, the
    /// admins'), which PostgreSQL otherwise parsed and planned at every call: at the door that was half the server's CPU
    /// (docs/benchmarks.md).</item>
    /// </list>
    /// </summary>
    private static string ConnectionString(string? configured)
    {
        NpgsqlConnectionStringBuilder csb;
        try
        {
            csb = new NpgsqlConnectionStringBuilder(configured);
        }
        catch (ArgumentException)
        {
            csb = new NpgsqlConnectionStringBuilder();
        }
        if (string.IsNullOrWhiteSpace(csb.Host))
        {
            throw new InvalidOperationException(
                "Slots:Storage:Provider is Postgres, but ConnectionStrings:Slots is not a PostgreSQL connection string (Host=…;Database=…;Username=…).");
        }
        var given = new DbConnectionStringBuilder { ConnectionString = configured };
        if (!given.ContainsKey("Timeout") && !given.ContainsKey("Connect Timeout"))
        {
            csb.Timeout = 5;
        }
        if (!given.ContainsKey("Maximum Pool Size") && !given.ContainsKey("Max Pool Size"))
        {
            csb.MaxPoolSize = DefaultMaxPoolSize;
        }
        if (!given.ContainsKey("No Reset On Close"))
        {
            csb.NoResetOnClose = true;
        }
        if (!given.ContainsKey("Max Auto Prepare"))
        {
            csb.MaxAutoPrepare = DefaultMaxAutoPrepare;
        }
        return csb.ConnectionString;
    }
}
