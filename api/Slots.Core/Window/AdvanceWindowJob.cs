using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Quartz;
using Slots.Scheduling;

namespace Slots.Window;

/// <summary>
/// Moves the days entering each place's window into the hot tables. Misfire: fire now — one run
/// catches up any number of missed ones (it loads every day up to today + Days), and after a
/// restart or a long stop the window should move at once, not at the next interval.
/// </summary>
[DisallowConcurrentExecution]
public sealed class AdvanceWindowJob(IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, ILogger<AdvanceWindowJob> logger)
    : SlotsJob(scopes, metrics, clock, logger)
{
    public const string JobName = "advance-window";

    protected override string Name => JobName;

    protected override async Task<long> RunAsync(IServiceProvider services, CancellationToken ct)
    {
        var moved = await services.GetRequiredService<IWindowSync>().AdvanceAsync(ct);
        return moved.Seats + moved.Reservations;
    }
}
