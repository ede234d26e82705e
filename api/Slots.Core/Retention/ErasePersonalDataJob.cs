using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Quartz;
using Slots.Scheduling;

namespace Slots.Retention;

/// <summary>
/// Erases personal data that has come due (Slots:Retention). Misfire: next with remaining count;
/// one run erases everything due, so a missed one has nothing to catch up.
/// </summary>
[DisallowConcurrentExecution]
public sealed class ErasePersonalDataJob(IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, ILogger<ErasePersonalDataJob> logger)
    : SlotsJob(scopes, metrics, clock, logger)
{
    public const string JobName = "erase-personal-data";

    protected override string Name => JobName;

    protected override async Task<long> RunAsync(IServiceProvider services, CancellationToken ct) =>
        (await services.GetRequiredService<PersonalDataRetention>().EraseDueAsync(Clock.GetUtcNow(), ct)).Total;
}
