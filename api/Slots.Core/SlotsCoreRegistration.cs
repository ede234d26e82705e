using Microsoft.Data.Sqlite;
using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Slots.Demo;
using Slots.Persons;
using Slots.Places;
using Slots.Reservations;
using Slots.Slots;
using Slots.Storage;
using Slots.Storage.Postgres;
using Slots.Storage.Sqlite;
using Slots.Storage.SqlServer;
using Slots.Window;

namespace Slots;

/// <summary>Registrations shared by the API and the scheduler host.</summary>
public static class SlotsCoreRegistration
{
    /// <summary>The domain: reservations, places, slots, window, persons. Backend-independent.</summary>
    public static IHostApplicationBuilder AddSlotsDomain(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<PersonOptions>().BindConfiguration(PersonOptions.Section);
        builder.Services.AddOptions<WindowOptions>().BindConfiguration(WindowOptions.Section)
            .Validate(o => o.Days is >= 1 and <= 366, $"{WindowOptions.Section}:Days must be 1..366");
        builder.Services.AddOptions<ReservationOptions>().BindConfiguration(ReservationOptions.Section);
        builder.Services.AddSingleton(TimeProvider.System);
        builder.Services.AddSingleton<PersonIdentity>();
        builder.Services.AddSingleton<PlaceDirectory>();
        builder.Services.AddSingleton<ReservationService>();
        builder.Services.AddScoped<PlaceCatalog>();
        builder.Services.AddScoped<SlotGenerator>();
        builder.Services.AddScoped<DemoData>();
        return builder;
    }

    /// <summary>The storage backend named by Slots:Storage:Provider, with its hot-path adapter and EF Core context.</summary>
    public static IHostApplicationBuilder AddSlotsStorage(this IHostApplicationBuilder builder)
    {
        var options = builder.Configuration.GetSection(StorageOptions.Section).Get<StorageOptions>() ?? new StorageOptions();
        builder.Services.AddSingleton(Options.Create(options));
        builder.Services.AddSingleton(new StorageDialect(options.Provider));
        switch (options.Provider)
        {
            case StorageProvider.Sqlite:
                AddSqlite(builder, options);
                break;
            case StorageProvider.Postgres:
                PostgresRegistration.Add(builder, options);
                break;
            case StorageProvider.SqlServer:
                SqlServerRegistration.Add(builder, options);
                break;
            default:
                throw new InvalidOperationException(
                    $"Unknown storage provider '{options.Provider}'; use Sqlite, Postgres or SqlServer.");
        }
        return builder;
    }

    /// <summary>The cold side through EF Core (SQLite and PostgreSQL): the catalogue, the cold path and the window mover.</summary>
    internal static void AddEfColdSide(IServiceCollection services)
    {
        services.AddScoped<ICatalogStore, EfCatalogStore>();
        services.AddSingleton<IColdReservationStore, ColdReservationStore>();
        services.AddScoped<HotWindowLoader>();
        services.AddScoped<WindowService>();
    }

    private static void AddSqlite(IHostApplicationBuilder builder, StorageOptions options)
    {
        var configured = builder.Configuration.GetConnectionString("Slots") ?? "Data Source=data/slots.db";
        var csb = new SqliteConnectionStringBuilder(configured) { Pooling = true, DefaultTimeout = 30 };
        if (!Path.IsPathRooted(csb.DataSource) && csb.DataSource != ":memory:")
        {
            csb.DataSource = Path.Combine(builder.Environment.ContentRootPath, csb.DataSource);
        }
        Directory.CreateDirectory(Path.GetDirectoryName(csb.DataSource)!);
        var connectionString = csb.ToString();
        builder.Services.AddSingleton(new SqliteConnectionString(connectionString));
        builder.Services.AddSingleton(sp => new SqliteWriter(connectionString, options.MaxBatch, sp.GetRequiredService<ILogger<SqliteWriter>>()));
        builder.Services.AddSingleton<IReservationStore, SqliteReservationStore>();
        builder.Services.AddDbContext<SlotsDbContext>(db => db.UseSqlite(connectionString));
        AddEfColdSide(builder.Services);
        builder.Services.AddSingleton<ISchemaMigrator>(new SqliteMigrator(connectionString));
    }
}

/// <summary>Applies the backend's schema scripts.</summary>
public interface ISchemaMigrator
{
    Task MigrateAsync(CancellationToken ct);
}

internal sealed class SqliteMigrator(string connectionString) : ISchemaMigrator
{
    public Task MigrateAsync(CancellationToken ct) => SqliteSchema.MigrateAsync(connectionString, ct);
}
