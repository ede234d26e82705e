using System.Data.Common;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Npgsql;
using Slots.Reservations;

namespace Slots.Storage.Postgres;

/// <summary>PostgreSQL: the hot path through one pooled NpgsqlDataSource, the cold side through EF Core.</summary>
public static class PostgresRegistration
{
    public static void Add(IHostApplicationBuilder builder, StorageOptions options)
    {
        _ = options; // nothing Postgres-specific in StorageOptions yet; the signature matches the other backends
        var connectionString = ConnectionString(builder.Configuration.GetConnectionString("Slots"));
        // The container builds and disposes the data source; every hot-path call rents from its pool.
        builder.Services.AddSingleton(_ => NpgsqlDataSource.Create(connectionString));
        builder.Services.AddSingleton<IReservationStore, PostgresReservationStore>();
        builder.Services.AddSingleton<ISchemaMigrator, PostgresSchema>();
        // EF gets the connection string, not the data source: a data source instance per host
        // would make EF build an internal service provider per host (tests start many hosts).
        builder.Services.AddDbContext<SlotsDbContext>(db => db.UseNpgsql(connectionString));
        SlotsCoreRegistration.AddEfColdSide(builder.Services);
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
