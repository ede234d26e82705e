using Slots.Window;

namespace Slots.Api.Hosting;

/// <summary>
/// Keeps the hot window moving on the embedded default, where the API is the only process:
/// checks every few minutes whether a day has come within reach of any place.
/// </summary>
internal sealed partial class WindowAdvancer(IServiceScopeFactory scopes, TimeProvider clock, ILogger<WindowAdvancer> logger) : BackgroundService
{
    private static readonly TimeSpan Every = TimeSpan.FromMinutes(5);

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(Every, clock);
        while (await timer.WaitForNextTickAsync(stoppingToken))
        {
            try
            {
                await using var scope = scopes.CreateAsyncScope();
                var seats = await scope.ServiceProvider.GetRequiredService<WindowService>().AdvanceAsync(stoppingToken);
                if (seats > 0)
                {
                    LogAdvanced(logger, seats);
                }
            }
            catch (Exception ex) when (ex is not OperationCanceledException)
            {
                LogFailed(logger, ex);
            }
        }
    }

    [LoggerMessage(EventId = 1101, Level = LogLevel.Information, Message = "Window advanced: {Seats} seats loaded")]
    private static partial void LogAdvanced(ILogger logger, int seats);

    [LoggerMessage(EventId = 1102, Level = LogLevel.Error, Message = "Window advance failed; retrying at the next tick")]
    private static partial void LogFailed(ILogger logger, Exception ex);
}
