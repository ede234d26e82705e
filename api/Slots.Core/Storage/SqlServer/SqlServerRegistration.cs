using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>Slots:Storage:Provider = SqlServer: the native-proc hot path, the cold-path procs, the script migrator, and (when available) EF Core for the rest of the cold side.</summary>
public static class SqlServerRegistration
{
    public const string RetrySection = "Slots:Storage:SqlServer:Retry";

    public static void Add(IHostApplicationBuilder builder, StorageOptions options)
    {
        var connectionString = builder.Configuration.GetConnectionString("Slots")
            ?? throw new InvalidOperationException("ConnectionStrings:Slots is required when Slots:Storage:Provider is SqlServer.");
        // The hot path relies on SqlClient's pool (on by default); say so explicitly so a copied
        // connection string with Pooling=false does not silently cost a login per reservation.
        var csb = new Microsoft.Data.SqlClient.SqlConnectionStringBuilder(connectionString) { Pooling = true };
        var retryOptions = builder.Configuration.GetSection(RetrySection).Get<SqlServerRetryOptions>() ?? new SqlServerRetryOptions();

        builder.Services.AddSingleton(new SqlServerConnectionString(csb.ConnectionString));
        builder.Services.AddSingleton(SqlServerRetryPolicy.For(retryOptions));
        builder.Services.AddSingleton<SqlServerReservationStore>();
        builder.Services.AddSingleton<IReservationStore>(sp => sp.GetRequiredService<SqlServerReservationStore>());
        builder.Services.AddSingleton<ISchemaMigrator>(new SqlServerSchemaMigrator(csb.ConnectionString));
        // Days beyond the window: the interpreted cold procs (sql/040-045), replacing the EF Core cold path.
        builder.Services.AddSingleton<IColdReservationStore, SqlServerColdReservationStore>();

        // Microsoft.EntityFrameworkCore.SqlServer 10.0.14 needs Microsoft.Data.SqlClient >= 6.1.7,
        // whose dependency graph the package registry of this build does not hold (see
        // docs/sqlserver.md). Until it does, the cold side fails loudly on first use instead of
        // running against the wrong provider.
        builder.Services.AddDbContext<SlotsDbContext>(_ => throw new InvalidOperationException(
            "The SQL Server cold side (EF Core) is not in this build: Microsoft.EntityFrameworkCore.SqlServer could not be restored. See docs/sqlserver.md."));
    }
}
