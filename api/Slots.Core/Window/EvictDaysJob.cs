using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Quartz;
using Slots.Scheduling;

namespace Slots.Window;

/// <summary>
/// Removes the days that ended in each place's time zone from the hot tables, after a last flush.
/// Misfire: fire now — one run evicts every ended day, and memory held by past days should be
/// given back soon after a stop, not an interval later.
/// </summary>
[DisallowConcurrentExecution]
public sealed class EvictDaysJob(
    IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, IOptions<SchedulerOptions> options, ILogger<EvictDaysJob> logger)
    : SlotsJob(scopes, metrics, clock, logger)
{
    public const string JobName = "evict-days";

    protected override string Name => JobName;

    protected override async Task<long> RunAsync(IServiceProvider services, CancellationToken ct) =>
        await services.GetRequiredService<IWindowSync>().EvictAsync(options.Value.FlushBatch, ct);
}
