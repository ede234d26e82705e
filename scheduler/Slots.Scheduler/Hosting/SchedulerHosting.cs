using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Options;
using Slots.Reservations;
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

    /// <summary>Liveness says the process runs; readiness says the database answers.</summary>
    public static IHostApplicationBuilder AddSchedulerHealth(this IHostApplicationBuilder builder)
    {
        builder.Services.AddHealthChecks().AddCheck<DatabaseHealthCheck>("database", tags: ["ready"]);
        return builder;
    }

    public static IEndpointRouteBuilder MapSchedulerHealth(this IEndpointRouteBuilder app)
    {
        app.MapHealthChecks("/health/live", new HealthCheckOptions { Predicate = _ => false });
        app.MapHealthChecks("/health/ready", new HealthCheckOptions { Predicate = c => c.Tags.Contains("ready") });
        return app;
    }

    private sealed class DatabaseHealthCheck(IReservationStore store) : IHealthCheck
    {
        public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken ct)
        {
            try
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(ct);
                timeout.CancelAfter(TimeSpan.FromSeconds(2));
                return await store.PingAsync(timeout.Token) ? HealthCheckResult.Healthy() : HealthCheckResult.Unhealthy("no answer");
            }
            catch (Exception ex) when (ex is System.Data.Common.DbException or OperationCanceledException or TimeoutException)
            {
                return HealthCheckResult.Unhealthy(ex.GetType().Name);
            }
        }
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
