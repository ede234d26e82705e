using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Quartz;
using Slots.Scheduling;

namespace Slots.Window;

/// <summary>
/// Drains the hot change records into the disk reservations every few seconds. Misfire: skip to
/// the next scheduled time — each run drains everything pending, so missed runs need no replay,
/// and the next one is at most one interval away.
/// </summary>
[DisallowConcurrentExecution]
public sealed class FlushHotChangesJob(
    IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, IOptions<SchedulerOptions> options, ILogger<FlushHotChangesJob> logger)
    : SlotsJob(scopes, metrics, clock, logger)
{
    public const string JobName = "flush-hot-changes";

    protected override string Name => JobName;

    protected override async Task<long> RunAsync(IServiceProvider services, CancellationToken ct)
    {
        var sync = services.GetRequiredService<IWindowSync>();
        var flushed = await sync.FlushAsync(options.Value.FlushBatch, ct);
        var oldest = await sync.OldestPendingChangeAsync(ct);
        Metrics.FlushLag(oldest is { } at ? Clock.GetUtcNow() - at : TimeSpan.Zero);
        return flushed;
    }
}
