using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;
using Quartz;
using Slots.Scheduling;

namespace Slots.Idempotency;

/// <summary>
/// Forgets idempotency keys older than the retention (24 h). Misfire: skip to the next time —
/// keys a little older than a day do no harm, and one run purges everything due anyway.
/// The SMS outbox is not touched here: its relay owns sent rows.
/// </summary>
[DisallowConcurrentExecution]
public sealed class PurgeIdempotencyJob(
    IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, IOptions<SchedulerOptions> options, ILogger<PurgeIdempotencyJob> logger)
    : SlotsJob(scopes, metrics, clock, logger)
{
    public const string JobName = "purge-idempotency";

    protected override string Name => JobName;

    protected override async Task<long> RunAsync(IServiceProvider services, CancellationToken ct) =>
        await services.GetRequiredService<IIdempotencyPurge>().PurgeAsync(Clock.GetUtcNow() - options.Value.IdempotencyRetention, ct);
}
