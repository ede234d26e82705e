using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Quartz;
using Slots.Scheduling;

namespace Slots.Staff;

/// <summary>
/// Marks the bookings nobody checked in by their slot's end plus the grace (Slots:Staff:CheckIn:NoShowGrace)
/// as no-shows, a batch at a time. Runs before the day is evicted from the hot tables. A person who
/// does come later is still checked in (the door overrides a no-show). Nothing here keeps anyone
/// from booking again: the one-booking rule ends with the slot, as before.
/// Misfire: next with remaining count; a missed run is caught up by the next, which takes every ended slot.
/// </summary>
[DisallowConcurrentExecution]
public sealed class MarkNoShowsJob(
    IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, IOptions<CheckInOptions> checkIn, IOptions<SchedulerOptions> options,
    StaffMetrics staff, ILogger<MarkNoShowsJob> logger)
    : SlotsJob(scopes, metrics, clock, logger)
{
    public const string JobName = "mark-no-shows";

    protected override string Name => JobName;

    protected override async Task<long> RunAsync(IServiceProvider services, CancellationToken ct)
    {
        var now = DateTimeOffset.FromUnixTimeSeconds(Clock.GetUtcNow().ToUnixTimeSeconds());
        var marked = await services.GetRequiredService<IStaffStore>()
            .MarkNoShowsAsync(now - checkIn.Value.NoShowGrace, now, options.Value.FlushBatch, ct);
        foreach (var place in marked.GroupBy(p => p))
        {
            staff.NoShows(place.Key, place.Count());
        }
        return marked.Count;
    }
}
