using Microsoft.Extensions.Options;
using Slots.Storage;

namespace Slots.Scheduler.Hosting;

internal static class SchedulerHosting
{
    /// <summary>The schema first: Quartz's tables and the sync functions must exist before the scheduler starts.</summary>
    public static IHostApplicationBuilder AddSchemaStartup(this IHostApplicationBuilder builder)
    {
        builder.Services.AddHostedService<SchemaStartup>();
        return builder;
    }

    /// <summary>Runs the migrator in StartingAsync, which completes before any hosted service (Quartz's included) starts.</summary>
    private sealed class SchemaStartup(ISchemaMigrator migrator, IOptions<StorageOptions> storage) : IHostedLifecycleService
    {
        public async Task StartingAsync(CancellationToken ct)
        {
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
}
