using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Quartz;
using Slots.Sms;
using Slots.Storage;
using Slots.Storage.SqlServer;
using Slots.Window;

namespace Slots.Scheduling;

/// <summary>
/// The scheduler's jobs on Quartz.NET, for the scheduler host and (on the embedded default) the
/// API process. SQLite: the in-memory store, one process. PostgreSQL and SQL Server: Quartz's
/// database store, clustered, so any number of scheduler hosts run each job on one node at a time
/// and a surviving node takes over the work of one that died.
/// </summary>
public static class SchedulingRegistration
{
    /// <summary>
    /// Registers the window operations and the run log always (the API's admin view reads them), and
    /// the Quartz scheduler with its jobs when this process runs them: always in the scheduler host
    /// (<paramref name="dedicatedHost"/>), in the API when Slots:Scheduler:InProcess says so.
    /// </summary>
    public static IHostApplicationBuilder AddSlotsScheduling(this IHostApplicationBuilder builder, bool dedicatedHost = false)
    {
        var storage = builder.Configuration.GetSection(StorageOptions.Section).Get<StorageOptions>() ?? new StorageOptions();
        var options = builder.Configuration.GetSection(SchedulerOptions.Section).Get<SchedulerOptions>() ?? new SchedulerOptions();
        builder.Services.AddOptions<SchedulerOptions>().BindConfiguration(SchedulerOptions.Section)
            .Validate(o => o.FlushBatch is >= 1 and <= 10_000, $"{SchedulerOptions.Section}:FlushBatch must be 1..10000")
            .Validate(o => o.FlushEvery >= TimeSpan.FromMilliseconds(100), $"{SchedulerOptions.Section}:FlushEvery must be at least 100 ms");
        builder.Services.AddSingleton<SchedulerMetrics>();
        if (storage.Provider == StorageProvider.SqlServer)
        {
            // EF Core for SQL Server is not in this build: the interpreted procs do the work through SqlClient.
            builder.Services.AddSingleton<SqlServerWindowSync>();
            builder.Services.AddSingleton<IWindowSync>(sp => sp.GetRequiredService<SqlServerWindowSync>());
            builder.Services.AddSingleton<IJobRunLog>(sp => sp.GetRequiredService<SqlServerWindowSync>());
        }
        else
        {
            builder.Services.AddScoped<IWindowSync, WindowSync>();
            builder.Services.AddScoped<IJobRunLog, JobRunLog>();
        }

        var runHere = dedicatedHost || (options.InProcess ?? storage.Provider == StorageProvider.Sqlite);
        if (!runHere)
        {
            return builder;
        }
        // The SMS outbox relay (and, with RabbitMQ, the SMS consumer) runs wherever the jobs run.
        builder.AddSlotsSms();
        var sms = builder.Configuration.GetSection(SmsOptions.Section).Get<SmsOptions>() ?? new SmsOptions();
        builder.AddQuartz(q =>
        {
            if (storage.Provider == StorageProvider.Sqlite)
            {
                // One process owns the file: nothing to share, nothing to cluster.
                q.UseInMemoryStore();
            }
            else
            {
                var connectionString = builder.Configuration.GetConnectionString("Slots")
                    ?? throw new InvalidOperationException("ConnectionStrings:Slots is required for the clustered scheduler.");
                q.UsePersistentStore(store =>
                {
                    if (storage.Provider == StorageProvider.Postgres)
                    {
                        store.UsePostgres(connectionString);
                    }
                    else
                    {
                        store.UseSqlServer(connectionString);
                    }
                    // The tables come from our migrator (Postgres 003_quartz.sql, sql/022), not from Quartz.
                    store.UseClustering(c => c.CheckinInterval = options.CheckinInterval);
                    // Our jobs carry no job data; the serializer is there for what Quartz stores itself.
                    store.UseSystemTextJsonSerializer();
                });
            }
            if (!string.IsNullOrWhiteSpace(options.InstanceId))
            {
                q.ConfigureScheduler(s => s.InstanceId = options.InstanceId);
            }
            q.AddSlotsJob<AdvanceWindowJob>(AdvanceWindowJob.JobName, options.AdvanceEvery, SimpleTriggerMisfireInstruction.FireNow);
            q.AddSlotsJob<FlushHotChangesJob>(FlushHotChangesJob.JobName, options.FlushEvery, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
            q.AddSlotsJob<EvictDaysJob>(EvictDaysJob.JobName, options.EvictEvery, SimpleTriggerMisfireInstruction.FireNow);
            q.AddSlotsJob<PurgeIdempotencyJob>(PurgeIdempotencyJob.JobName, options.PurgeEvery, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
            // A relay run that was missed has nothing special to catch up: the next one drains the whole outbox.
            q.AddSlotsJob<RelayOutboxJob>(RelayOutboxJob.Key.Name, sms.RelayInterval, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
        });
        // Stopping waits for a running job: a flush interrupted mid-batch would be rolled back and redone anyway,
        // but a clean stop keeps the run log honest.
        builder.AddQuartzHostedService(o => o.WaitForJobsToComplete = true);
        return builder;
    }

    /// <summary>
    /// A durable job fired every <paramref name="every"/> from start, forever, with the given misfire
    /// instruction (say why at the call site or on the job). One job and one trigger, both named after the job.
    /// </summary>
    public static IQuartzBuilder AddSlotsJob<TJob>(this IQuartzBuilder q, string name, TimeSpan every, SimpleTriggerMisfireInstruction misfire)
        where TJob : class, IJob
    {
        q.AddJob<TJob>(j => j.WithIdentity(name, "slots").StoreDurably());
        q.AddTrigger(t => t
            .ForJob(name, "slots")
            .WithIdentity(name, "slots")
            .StartNow()
            .WithSimpleSchedule(s => s.WithInterval(every).RepeatForever().WithMisfireInstruction(misfire)));
        return q;
    }
}
