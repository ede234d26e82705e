using System.Data.Common;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Npgsql;
using Quartz;
using Slots.Reservations;
using Slots.Sms;
using Slots.Storage.Ef;

namespace Slots.Storage.Postgres;

/// <summary>PostgreSQL: the hot path through one pooled NpgsqlDataSource, the cold side through EF Core, Quartz clustered on the same database.</summary>
public sealed class PostgresBackend : StorageBackend
{
    public override StorageProvider Provider => StorageProvider.Postgres;

    public override bool Embedded => false;

    public override void UseJobStore(IPersistentStoreBuilder store, string connectionString) =>
        store.UsePostgres(connectionString);

    public override void Register(IHostApplicationBuilder builder, StorageOptions options)
    {
        var connectionString = ConnectionString(builder.Configuration.GetConnectionString("Slots"));
        // The container builds and disposes the data source; every hot-path call rents from its pool.
        builder.Services.AddSingleton(_ => NpgsqlDataSource.Create(connectionString));
        builder.Services.AddSingleton<IReservationStore, PostgresReservationStore>();
        builder.Services.AddSingleton<ISmsStore, PostgresSmsStore>();
        builder.Services.AddSingleton<ISchemaMigrator, PostgresSchema>();
        // EF gets the connection string, not the data source: a data source instance per host
        // would make EF build an internal service provider per host (tests start many hosts).
        builder.Services.AddEfColdSide<PostgresDialect>(connectionString);
    }

    /// <summary>
    /// The configured string, with a 5 s connect timeout unless it names one: with the server gone
    /// a request should fail fast into 503 + Retry-After, not hang for Npgsql's default 15 s.
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
        return csb.ConnectionString;
    }
}
