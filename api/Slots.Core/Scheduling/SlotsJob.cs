using System.Data.Common;
using System.Diagnostics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Logging;
using Quartz;

namespace Slots.Scheduling;

/// <summary>
/// What every Slots job does around its work: a fresh DI scope (a DbContext per run), the
/// Slots.Scheduler metrics, a line in the run log, and a log entry with a stable event id.
/// Subclasses only say which domain operation they call and how many rows it moved.
/// </summary>
public abstract partial class SlotsJob(IServiceScopeFactory scopes, SchedulerMetrics metrics, TimeProvider clock, ILogger logger) : IJob
{
    protected SchedulerMetrics Metrics => metrics;

    protected TimeProvider Clock => clock;

    /// <summary>The job's name in Quartz, the metrics and the run log.</summary>
    protected abstract string Name { get; }

    /// <summary>The work; returns the rows it moved.</summary>
    protected abstract Task<long> RunAsync(IServiceProvider services, CancellationToken ct);

    public async ValueTask Execute(IJobExecutionContext context, CancellationToken cancellationToken)
    {
        var ct = cancellationToken;
        var started = clock.GetUtcNow();
        var watch = Stopwatch.StartNew();
        await using var scope = scopes.CreateAsyncScope();
        try
        {
            var rows = await RunAsync(scope.ServiceProvider, ct);
            await FinishAsync(scope.ServiceProvider, started, watch.Elapsed, rows, ok: true, context.Scheduler.SchedulerInstanceId, ct);
            if (rows > 0)
            {
                LogRan(logger, Name, rows, (long)watch.Elapsed.TotalMilliseconds);
            }
        }
        catch (Exception ex) when (ex is not OperationCanceledException)
        {
            LogFailed(logger, ex, Name);
            await FinishAsync(scope.ServiceProvider, started, watch.Elapsed, 0, ok: false, context.Scheduler.SchedulerInstanceId, CancellationToken.None);
            // The trigger fires again at its next time; refiring at once would hammer a database that is down.
            throw new JobExecutionException(ex) { RefireImmediately = false };
        }
    }

    private async Task FinishAsync(IServiceProvider services, DateTimeOffset started, TimeSpan took, long rows, bool ok, string instance, CancellationToken ct)
    {
        metrics.Ran(Name, took, rows, ok);
        try
        {
            await services.GetRequiredService<IJobRunLog>().RecordAsync(new JobRun(Name, started, took, rows, ok, instance), ct);
        }
        catch (DbException ex)
        {
            LogNotRecorded(logger, ex, Name);
        }
    }

    [LoggerMessage(EventId = 4001, Level = LogLevel.Information, Message = "Job {Job} moved {Rows} rows in {Milliseconds} ms")]
    private static partial void LogRan(ILogger logger, string job, long rows, long milliseconds);

    [LoggerMessage(EventId = 4002, Level = LogLevel.Error, Message = "Job {Job} failed; it runs again at its next firing")]
    private static partial void LogFailed(ILogger logger, Exception ex, string job);

    [LoggerMessage(EventId = 4003, Level = LogLevel.Warning, Message = "Job {Job} ran but its run could not be recorded")]
    private static partial void LogNotRecorded(ILogger logger, Exception ex, string job);
}
