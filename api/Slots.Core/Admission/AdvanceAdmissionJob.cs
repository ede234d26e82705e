using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Quartz;
using Slots.Scheduling;

namespace Slots.Admission;

/// <summary>
/// Advances the serving counter of every open opening (<see cref="ServingCounter"/>). One node of
/// the cluster runs it at a time (the clustered job store, and DisallowConcurrentExecution); the
/// counter's guarded write keeps even two overlapping runs from admitting twice. Misfire: skip to
/// the next time — each run admits from the counters as they are, so there is nothing to catch up.
/// </summary>
[DisallowConcurrentExecution]
public sealed class AdvanceAdmissionJob(IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, ILogger<AdvanceAdmissionJob> logger)
    : SlotsJob(scopes, metrics, clock, logger)
{
    public const string JobName = "advance-waiting-rooms";

    protected override string Name => JobName;

    protected override Task<long> RunAsync(IServiceProvider services, CancellationToken ct) =>
        services.GetRequiredService<ServingCounter>().AdvanceAsync(ct);
}
