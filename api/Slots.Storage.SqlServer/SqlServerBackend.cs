using Microsoft.EntityFrameworkCore;
using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Quartz;
using Slots.Admission;
using Slots.Catalogue;
using Slots.Idempotency;
using Slots.MachineKeys;
using Slots.Reminders;
using Slots.Reservations;
using Slots.Retention;
using Slots.Scheduling;
using Slots.Sms;
using Slots.Staff;
using Slots.Storage.Ef;
using Slots.Storage.Ef.Retention;
using Slots.Storage.SqlServer.Ef;
using Slots.WaitingList;
using Slots.Window;

namespace Slots.Storage.SqlServer;

/// <summary>
/// Slots:Storage:Provider = SqlServer: the native-proc hot path (reservations batched), the
/// cold-path procs, slot generation, the window procs, the SMS store, the waiting room and the script
/// migrator through SqlClient; the catalogue's places and totals, staff, the waiting list, reminders,
/// retention, wrong proofs and machine keys through the shared EF Core store on SQL Server's provider
/// (their writes on hot rows in procs);
/// Quartz clustered on the same database.
/// </summary>
public sealed class SqlServerBackend : StorageBackend
{
    public const string RetrySection = "Slots:Storage:SqlServer:Retry";

    public override StorageProvider Provider => StorageProvider.SqlServer;

    public override bool Embedded => false;

    public override void UseJobStore(IPersistentStoreBuilder store, string connectionString) =>
        store.UseSqlServer(connectionString);

    public override void Register(IHostApplicationBuilder builder, StorageOptions options)
    {
        var connectionString = builder.Configuration.GetConnectionString("Slots")
            ?? throw new InvalidOperationException("ConnectionStrings:Slots is required when Slots:Storage:Provider is SqlServer.");
        // The hot path relies on SqlClient's pool (on by default); say so explicitly so a copied
        // connection string with Pooling=false does not silently cost a login per reservation.
        var csb = new Microsoft.Data.SqlClient.SqlConnectionStringBuilder(connectionString) { Pooling = true };
        var retryOptions = builder.Configuration.GetSection(RetrySection).Get<SqlServerRetryOptions>() ?? new SqlServerRetryOptions();

        builder.Services.AddSingleton(new SqlServerConnectionString(csb.ConnectionString));
        builder.Services.AddSingleton(SqlServerRetryPolicy.For(retryOptions));
        // Group commit: the reservations waiting in this instance go to dbo.reserve_batch together.
        builder.Services.AddSingleton(GroupCommitOptions.Read<SqlServerBatchOptions>(builder.Configuration, SqlServerBatchOptions.Section));
        builder.Services.AddSingleton<SqlServerBatcher>();
        builder.Services.AddSingleton<SqlServerReservationStore>();
        builder.Services.AddSingleton<IReservationStore>(sp => sp.GetRequiredService<SqlServerReservationStore>());
        builder.Services.AddSingleton<ISchemaMigrator>(new SqlServerSchemaMigrator(csb.ConnectionString));
        // The cold side through SqlClient too: its procs lock and read the hot tables in one round trip (docs/sqlserver.md).
        // Days beyond the window: the interpreted cold procs (sql/040-045).
        builder.Services.AddSingleton<IColdReservationStore, SqlServerColdReservationStore>();
        // The catalogue: places and day totals through the shared EF Core store, slot generation in dbo.add_slots (sql/026).
        builder.Services.AddScoped<ICatalogStore, SqlServerCatalogStore>();
        // The window: the interpreted procs of sql/019-022, which also keep the job log and purge idempotency keys.
        builder.Services.AddSingleton<SqlServerWindowSync>();
        builder.Services.AddSingleton<IWindowSync>(sp => sp.GetRequiredService<SqlServerWindowSync>());
        builder.Services.AddSingleton<IJobRunLog>(sp => sp.GetRequiredService<SqlServerWindowSync>());
        builder.Services.AddSingleton<IIdempotencyPurge>(sp => sp.GetRequiredService<SqlServerWindowSync>());
        builder.Services.AddSingleton<ISmsStore, SqlServerSmsStore>();
        // The waiting room's counters beside the hot tables (sql/050-057).
        builder.Services.AddSingleton<IAdmissionStore, SqlServerAdmissionStore>();
        // The site's day: roster and trail through the shared EF Core store; the writes that meet the hot
        // rows in procs beside the hot path's: the native dbo.staff_check_in, the no-shows, the block cancel (sql/060-068).
        builder.Services.AddSingleton<IStaffStore, SqlServerStaffStore>();
        // The waiting list: entries and offers through the shared EF Core store; the writes that meet the hot
        // seats in procs beside the hot path's: the claim, the offer's hold, the wanted days (sql/080-083, 101-105).
        builder.Services.AddSingleton<IWaitingListStore, SqlServerWaitingListStore>();
        // What is not about the hot seats runs the shared EF Core store, the code SQLite and PostgreSQL
        // run and test, here on SQL Server's provider (MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT, sql/001, lets
        // its interpreted statements reach the memory-optimized tables): retention and a person's own
        // view and erasure of their data (their cancel first goes through the procs), the per-code
        // guessing limit's wrong proofs (sql/090), the day-before reminders (sql/070) and the machine keys (sql/110).
        builder.Services.AddDbContextPool<SlotsDbContext>(db => SqlServerModel.Use(db, csb.ConnectionString));
        builder.Services.AddScoped<IPersonalDataEraser, EfPersonalDataEraser>();
        builder.Services.AddScoped<IPersonalDataStore, EfPersonalDataStore>();
        builder.Services.AddSingleton<IWrongProofStore, Slots.Storage.Ef.Reservations.EfWrongProofStore>();
        builder.Services.AddSingleton<IReminderStore, Slots.Storage.Ef.Reminders.EfReminderStore>();
        builder.Services.AddSingleton<IMachineKeyStore, Slots.Storage.Ef.MachineKeys.EfMachineKeyStore>();
        // Invitation batches (sql/172-173): issued and revoked through the shared store; no booking spends a code here yet.
        builder.Services.AddScoped<Slots.Eligibility.IInvitationStore, Slots.Storage.Ef.Eligibility.EfInvitationStore>();
        // Two-dose pairs' links (sql/175) through the shared store.
        builder.Services.AddSingleton<IDosePairStore, Slots.Storage.Ef.Reservations.EfDosePairStore>();
    }
}
