using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>Slots:Storage:Provider = SqlServer: the native-proc hot path, the cold-path procs, the catalogue and the script migrator, all through SqlClient.</summary>
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
        // The cold side through SqlClient too: EF Core's SQL Server provider is not in this build
        // (it needs a Microsoft.Data.SqlClient whose dependencies the registry lacks; docs/sqlserver.md).
        // Days beyond the window: the interpreted cold procs (sql/040-045).
        builder.Services.AddSingleton<IColdReservationStore, SqlServerColdReservationStore>();
        builder.Services.AddSingleton<ICatalogStore, SqlServerCatalogStore>();
    }
}
