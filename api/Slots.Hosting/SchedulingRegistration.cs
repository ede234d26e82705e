using Microsoft.Extensions.Configuration;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Quartz;
using Slots.Admission;
using Slots.Retention;
using Slots.Scheduling;
using Slots.Sms;
using Slots.Storage;
using Slots.WaitingList;

namespace Slots.Hosting;

/// <summary>
/// The scheduler's jobs on Quartz.NET, for the scheduler host and (on the embedded default) the
/// API process. An embedded backend: the in-memory store, one process. A server backend: Quartz's
/// database store, clustered, so any number of scheduler hosts run each job on one node at a time
/// and a surviving node takes over the work of one that died.
/// </summary>
public static class SchedulingRegistration
{
    /// <summary>
    /// The metrics and options always (the API's admin view reads the run log, which the backend
    /// registered), and the Quartz scheduler with its jobs when this process runs them: always in
    /// the scheduler host (<paramref name="dedicatedHost"/>), in the API when
    /// Slots:Scheduler:InProcess says so (by default: on an embedded backend). Needs AddSlotsStorage first.
    /// </summary>
    public static IHostApplicationBuilder AddSlotsScheduling(this IHostApplicationBuilder builder, bool dedicatedHost = false)
    {
        var backend = StorageBackend.Of(builder);
        var options = builder.Configuration.GetSection(SchedulerOptions.Section).Get<SchedulerOptions>() ?? new SchedulerOptions();
        builder.Services.AddOptions<SchedulerOptions>().BindConfiguration(SchedulerOptions.Section)
            .Validate(o => o.FlushBatch is >= 1 and <= 10_000, $"{SchedulerOptions.Section}:FlushBatch must be 1..10000")
            .Validate(o => o.FlushEvery >= TimeSpan.FromMilliseconds(100), $"{SchedulerOptions.Section}:FlushEvery must be at least 100 ms");
        builder.Services.AddSingleton<SchedulerMetrics>();

        var runHere = dedicatedHost || (options.InProcess ?? backend.Embedded);
        if (!runHere)
        {
            return builder;
        }
        // The SMS outbox relay (and, with RabbitMQ, the SMS consumer) runs wherever the jobs run.
        builder.AddSlotsSms();
        var sms = builder.Configuration.GetSection(SmsOptions.Section).Get<SmsOptions>() ?? new SmsOptions();
        var rooms = builder.Configuration.GetSection(AdmissionOptions.Section).Get<AdmissionOptions>() ?? new AdmissionOptions();
        var waitingList = builder.Configuration.GetSection(WaitingListOptions.Section).Get<WaitingListOptions>() ?? new WaitingListOptions();
        var retention = builder.Configuration.GetSection(RetentionOptions.Section).Get<RetentionOptions>() ?? new RetentionOptions();
        builder.AddQuartz(q =>
        {
            if (backend.Embedded)
            {
                // One process owns the database: nothing to share, nothing to cluster.
                q.UseInMemoryStore();
            }
            else
            {
                var connectionString = builder.Configuration.GetConnectionString("Slots")
                    ?? throw new InvalidOperationException("ConnectionStrings:Slots is required for the clustered scheduler.");
                q.UsePersistentStore(store =>
                {
                    // The tables come from the backend's migrator, not from Quartz.
                    backend.UseJobStore(store, connectionString);
                    store.UseClustering(c => c.CheckinInterval = options.CheckinInterval);
                    // Our jobs carry no job data; the serializer is there for what Quartz stores itself.
                    store.UseSystemTextJsonSerializer();
                });
            }
            if (!string.IsNullOrWhiteSpace(options.InstanceId))
            {
                q.ConfigureScheduler(s => s.InstanceId = options.InstanceId);
            }
            q.AddSlotsJobs(options, sms, rooms, waitingList, retention);
        });
        // Stopping waits for a running job: a flush interrupted mid-batch would be rolled back and redone anyway,
        // but a clean stop keeps the run log honest.
        builder.AddQuartzHostedService(o => o.WaitForJobsToComplete = true);
        return builder;
    }
}
