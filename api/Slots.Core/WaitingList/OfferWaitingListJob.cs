using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Quartz;
using Slots.Scheduling;

namespace Slots.WaitingList;

/// <summary>
/// Moves every place's waiting line (Slots:WaitingList:Every): expired holds go on to the next,
/// people who booked elsewhere leave, the first in line whose days match are offered a seat kept
/// for the line or free (held for Hold, or BackfillHold when it starts within BackfillWithin), and
/// seats kept for a line that no longer wants them are given back. All of it is state in the
/// database, so a restart or a failover to another scheduler node goes on where it stopped.
/// Misfire: next with remaining count; the next run does what is due.
/// </summary>
[DisallowConcurrentExecution]
public sealed class OfferWaitingListJob(
    IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, IOptions<WaitingListOptions> options,
    WaitingListMetrics lines, ILogger<OfferWaitingListJob> logger)
    : SlotsJob(scopes, metrics, clock, logger)
{
    public const string JobName = "offer-waiting-list";

    protected override string Name => JobName;

    protected override async Task<long> RunAsync(IServiceProvider services, CancellationToken ct)
    {
        var now = DateTimeOffset.FromUnixTimeSeconds(Clock.GetUtcNow().ToUnixTimeSeconds());
        var step = await services.GetRequiredService<IWaitingListStore>().StepAsync(now, options.Value, ct);
        lines.Step(step, step.Waiting);
        return step.Total;
    }
}
