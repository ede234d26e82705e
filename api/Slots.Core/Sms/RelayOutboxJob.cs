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

    /// <summary>Back-offs up to this long are waited out within the run (OutboxRelay starts at 500 ms and doubles).</summary>
    internal static readonly TimeSpan ShortBackOff = TimeSpan.FromSeconds(1);

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
                // The transport has just broken and its back-off is still short: in a RabbitMQ cluster
                // another node takes the queue over within a fraction of a second, so this run waits for
                // it instead of leaving the rows to the next run, RelayInterval later. What is left of
                // the wait may be nothing: a thread that came back late still owes the transport its try.
                // Rounded up to whole milliseconds: a timer counts those, may fire a little before the wall
                // clock reaches the retry time, and would take the rest (under 1 ms) as 0 and let the run spin.
                var left = relay.RetryIn;
                var wait = left > TimeSpan.Zero ? TimeSpan.FromMilliseconds(Math.Ceiling(left.TotalMilliseconds)) : TimeSpan.Zero;
                if (relay.RetryPending && relay.BackOff <= ShortBackOff && clock.GetElapsedTime(started) + wait < options.Value.RelayMaxRunTime)
                {
                    if (wait > TimeSpan.Zero)
                    {
                        await Task.Delay(wait, clock, ct);
                    }
                    continue;
                }
                break;
            }
            total += relayed;
        }
        return total;
    }
}
