using Microsoft.Data.Sqlite;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Slots.Admission;
using Slots.Reservations;
using Slots.Sms;
using Slots.Staff;
using Slots.Storage.Ef;
using Slots.Storage.Sqlite.Staff;
using Slots.WaitingList;

namespace Slots.Storage.Sqlite;

/// <summary>
/// The embedded default: one file, one process. Writes go through the single batching writer,
/// reads use pooled connections (WAL), the cold side is EF Core, and the jobs run in the API.
/// </summary>
public sealed class SqliteBackend : StorageBackend
{
    public override StorageProvider Provider => StorageProvider.Sqlite;

    public override bool Embedded => true;

    public override void Register(IHostApplicationBuilder builder, StorageOptions options)
    {
        var configured = builder.Configuration.GetConnectionString("Slots") ?? "Data Source=data/slots.db";
        var csb = new SqliteConnectionStringBuilder(configured) { Pooling = true, DefaultTimeout = 30 };
        if (!Path.IsPathRooted(csb.DataSource) && csb.DataSource != ":memory:")
        {
            csb.DataSource = Path.Combine(builder.Environment.ContentRootPath, csb.DataSource);
        }
        Directory.CreateDirectory(Path.GetDirectoryName(csb.DataSource)!);
        var connectionString = csb.ToString();
        var services = builder.Services;
        services.AddSingleton(new SqliteConnectionString(connectionString));
        services.AddSingleton(sp => new SqliteWriter(connectionString, options.MaxBatch, sp.GetRequiredService<ILogger<SqliteWriter>>()));
        services.AddSingleton<IReservationStore, SqliteReservationStore>();
        services.AddSingleton<ISmsStore, SqliteSmsStore>();
        services.AddSingleton<IAdmissionStore, SqliteAdmissionStore>();
        services.AddSingleton<IStaffStore, SqliteStaffStore>();
        services.AddSingleton<IWaitingListStore, Slots.Storage.Sqlite.WaitingList.SqliteWaitingListStore>();
        services.AddSingleton<ISchemaMigrator>(new SqliteMigrator(connectionString));
        services.AddEfColdSide<SqliteDialect>(connectionString);
        // Replaces AddEfColdSide's EF store (the last registration wins): reminders join the writer's group commit.
        services.AddSingleton<Slots.Reminders.IReminderStore, Slots.Storage.Sqlite.Reminders.SqliteReminderStore>();
        // A new booking's confirmation lives on its hot row (190_reservation_events.sql), as on PostgreSQL.
        services.AddScoped<Slots.Retention.IPersonalDataStore, Slots.Storage.Ef.Retention.EventRowPersonalDataStore>();
    }
}

internal sealed class SqliteMigrator(string connectionString) : ISchemaMigrator
{
    public Task MigrateAsync(CancellationToken ct) => SqliteSchema.MigrateAsync(connectionString, ct);
}
