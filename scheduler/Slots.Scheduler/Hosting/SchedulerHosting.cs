using Microsoft.Extensions.Options;
using Slots.Storage;

namespace Slots.Scheduler.Hosting;

internal static partial class SchedulerHosting
{
    /// <summary>The schema first: Quartz's tables and the sync functions must exist before the scheduler starts.</summary>
    public static IHostApplicationBuilder AddSchemaStartup(this IHostApplicationBuilder builder)
    {
        builder.Services.AddHostedService<SchemaStartup>();
        return builder;
    }

    /// <summary>Runs the migrator in StartingAsync, which completes before any hosted service (Quartz's included) starts.</summary>
    private sealed class SchemaStartup(ISchemaMigrator migrator, IOptions<StorageOptions> storage, ILogger<SchemaStartup> logger)
        : IHostedLifecycleService
    {
        public async Task StartingAsync(CancellationToken ct)
        {
            // The first line a starting node writes: a start that hangs later can be placed.
            LogStarting(logger, Environment.ProcessId, storage.Value.MigrateOnStart);
            if (storage.Value.MigrateOnStart)
            {
                await migrator.MigrateAsync(ct);
            }
        }

        public Task StartAsync(CancellationToken ct) => Task.CompletedTask;
        public Task StartedAsync(CancellationToken ct) => Task.CompletedTask;
        public Task StoppingAsync(CancellationToken ct) => Task.CompletedTask;
        public Task StopAsync(CancellationToken ct) => Task.CompletedTask;
        public Task StoppedAsync(CancellationToken ct) => Task.CompletedTask;
    }

    [LoggerMessage(EventId = 4100, Level = LogLevel.Information, Message = "Scheduler node starting (process {ProcessId}); migrating the schema first: {Migrate}")]
    private static partial void LogStarting(ILogger logger, int processId, bool migrate);
}
