using Microsoft.Extensions.Options;
using Quartz;

namespace Slots.Sms;

/// <summary>
/// Drains the SMS outbox: relays batch after batch until none is left, bounded in batches and
/// time so one run never holds the scheduler; the next run carries on. Trigger it every
/// Slots:Sms:RelayInterval (default 2 s).
/// </summary>
[DisallowConcurrentExecution]
public sealed class RelayOutboxJob(OutboxRelay relay, TimeProvider clock, IOptions<SmsOptions> options) : IJob
{
    public static readonly JobKey Key = new("relay-outbox", "sms");

    public async ValueTask Execute(IJobExecutionContext context, CancellationToken cancellationToken) =>
        context.Result = await DrainAsync(cancellationToken);

    /// <summary>Returns how many rows were relayed.</summary>
    public async Task<int> DrainAsync(CancellationToken ct)
    {
        var started = clock.GetTimestamp();
        var total = 0;
        for (var batch = 0; batch < options.Value.RelayMaxBatchesPerRun && clock.GetElapsedTime(started) < options.Value.RelayMaxRunTime; batch++)
        {
            var relayed = await relay.RelayAsync(ct);
            if (relayed == 0)
            {
                break;
            }
            total += relayed;
        }
        return total;
    }
}
