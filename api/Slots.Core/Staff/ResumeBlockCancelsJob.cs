using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Quartz;
using Slots.Scheduling;

namespace Slots.Staff;

/// <summary>
/// Finishes the block cancels whose runner died (an API instance killed half-way through one):
/// every unfinished block with no progress for Slots:Staff:BlockCancel:ResumeAfter is run to its end.
/// A batch cancels each booking once whoever runs it, so a runner that was only slow does no harm.
/// Misfire: next with remaining count; the next run finds the same blocks.
/// </summary>
[DisallowConcurrentExecution]
public sealed class ResumeBlockCancelsJob(
    IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, IOptions<BlockCancelOptions> options,
    ILogger<ResumeBlockCancelsJob> logger)
    : SlotsJob(scopes, metrics, clock, logger)
{
    public const string JobName = "resume-block-cancels";

    protected override string Name => JobName;

    protected override async Task<long> RunAsync(IServiceProvider services, CancellationToken ct)
    {
        var store = services.GetRequiredService<IStaffStore>();
        var blocks = services.GetRequiredService<BlockCancels>();
        var stalled = await store.StalledBlockCancelsAsync(Clock.GetUtcNow() - options.Value.ResumeAfter, ct);
        foreach (var id in stalled)
        {
            await blocks.RunAsync(id, ct);
        }
        return stalled.Count;
    }
}
