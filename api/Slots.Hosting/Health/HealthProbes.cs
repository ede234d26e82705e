using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Diagnostics.HealthChecks;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Slots.Reservations;

namespace Slots.Hosting.Health;

/// <summary>
/// The probes both hosts answer (HAProxy, compose and the stack script ask them): liveness says
/// the process runs; readiness says the database answers.
/// </summary>
public static class HealthProbes
{
    public static IHostApplicationBuilder AddHealthProbes(this IHostApplicationBuilder builder)
    {
        builder.Services.AddHealthChecks().AddCheck<DatabaseHealthCheck>("database", tags: ["ready"]);
        return builder;
    }

    public static IEndpointRouteBuilder MapHealthProbes(this IEndpointRouteBuilder app)
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
}
