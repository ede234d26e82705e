using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Quartz;
using Slots.Scheduling;

namespace Slots.Reminders;

/// <summary>
/// Queues the day-before reminders of the places whose local time has come, at
/// Slots:Reminders:PerSecond on average (a run queues at most that rate times the interval), so a
/// busy day goes out over a while and the outbox keeps room for everything else. What was queued
/// is in the database: a restart or a failover to another scheduler node goes on where it stopped.
/// Misfire: next with remaining count; the next run takes what is still due.
/// </summary>
[DisallowConcurrentExecution]
public sealed class QueueRemindersJob(
    IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, IOptions<ReminderOptions> options,
    IOptions<SchedulerOptions> scheduler, ILogger<QueueRemindersJob> logger)
    : SlotsJob(scopes, metrics, clock, logger)
{
    public const string JobName = "queue-reminders";

    protected override string Name => JobName;

    protected override async Task<long> RunAsync(IServiceProvider services, CancellationToken ct)
    {
        if (!options.Value.Enabled)
        {
            return 0;
        }
        var now = Clock.GetUtcNow();
        var allowance = (int)Math.Max(1, options.Value.PerSecond * scheduler.Value.RemindersEvery.TotalSeconds);
        var queued = await services.GetRequiredService<DayBeforeReminders>().QueueDueAsync(now, allowance, ct);
        // Two days back in UTC is before yesterday everywhere (offsets reach ±14 h): those bookings are over.
        await services.GetRequiredService<IReminderStore>().ForgetBeforeAsync(DateOnly.FromDateTime(now.UtcDateTime).AddDays(-2), ct);
        return queued;
    }
}
