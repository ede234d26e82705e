using Quartz;
using Slots.Admission;
using Slots.Idempotency;
using Slots.Reminders;
using Slots.Retention;
using Slots.Sms;
using Slots.Staff;
using Slots.WaitingList;
using Slots.Window;

namespace Slots.Scheduling;

/// <summary>The scheduler's jobs and how each is triggered; which store Quartz uses is the backend's choice (Slots.Hosting).</summary>
public static class SlotsJobs
{
    /// <summary>Every Slots job with its trigger: the window jobs, the idempotency purge, the personal data's erasure, the SMS outbox relay and the waiting rooms' counters.</summary>
    public static IQuartzBuilder AddSlotsJobs(this IQuartzBuilder q, SchedulerOptions options, SmsOptions sms, AdmissionOptions rooms,
        WaitingListOptions waitingList, RetentionOptions retention)
    {
        q.AddSlotsJob<AdvanceWindowJob>(AdvanceWindowJob.JobName, options.AdvanceEvery, SimpleTriggerMisfireInstruction.FireNow);
        q.AddSlotsJob<FlushHotChangesJob>(FlushHotChangesJob.JobName, options.FlushEvery, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
        q.AddSlotsJob<EvictDaysJob>(EvictDaysJob.JobName, options.EvictEvery, SimpleTriggerMisfireInstruction.FireNow);
        q.AddSlotsJob<PurgeIdempotencyJob>(PurgeIdempotencyJob.JobName, options.PurgeEvery, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
        // A relay run that was missed has nothing special to catch up: the next one drains the whole outbox.
        q.AddSlotsJob<RelayOutboxJob>(RelayOutboxJob.Key.Name, sms.RelayInterval, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
        q.AddSlotsJob<MarkNoShowsJob>(MarkNoShowsJob.JobName, options.NoShowsEvery, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
        q.AddSlotsJob<OfferWaitingListJob>(OfferWaitingListJob.JobName, waitingList.Every, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
        q.AddSlotsJob<QueueRemindersJob>(QueueRemindersJob.JobName, options.RemindersEvery, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
        q.AddSlotsJob<ResumeBlockCancelsJob>(ResumeBlockCancelsJob.JobName, options.ResumeBlockCancelsEvery, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
        q.AddSlotsJob<ErasePersonalDataJob>(ErasePersonalDataJob.JobName, retention.Every, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
        q.AddSlotsJob<AdvanceAdmissionJob>(AdvanceAdmissionJob.JobName, rooms.AdvanceEvery, SimpleTriggerMisfireInstruction.NextWithRemainingCount);
        return q;
    }

    /// <summary>
    /// A durable job fired <paramref name="every"/> after its previous run ended, from start, forever, with the given misfire
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
            // A fixed delay, not a fixed rate: the next run is an interval after the previous one ended,
            // so a slow run (or a node that was starved for a while) never turns into a burst of catch-up runs.
            .WithSimpleSchedule(s => s.WithInterval(every).RepeatForever().MeasureIntervalFromCompletion(true).WithMisfireInstruction(misfire)));
        return q;
    }
}
