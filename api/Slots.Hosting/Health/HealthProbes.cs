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
/// the process runs; readiness says the database answers and the places and services copies are
/// loaded. An API instance that joins a stampede is sent readers only once they find the copies in
/// memory: its first readers once all waited for that first load, among the bookings, for seconds.
/// (The scheduler holds the same copies; loading them there is one read of two small tables.)
/// </summary>
public static class HealthProbes
{
    public static IHostApplicationBuilder AddHealthProbes(this IHostApplicationBuilder builder)
    {
        DatabaseWitness.Witness(builder.Services);
        builder.Services.AddHealthChecks()
            .AddCheck<DatabaseHealthCheck>("database", tags: ["ready"])
            .AddCheck<CatalogueHealthCheck>("catalogue", tags: ["ready"])
            .AddCheck<AvailabilityHeldCheck>("availability", tags: ["ready"]);
        return builder;
    }

    public static IEndpointRouteBuilder MapHealthProbes(this IEndpointRouteBuilder app)
    {
        app.MapHealthChecks("/health/live", new HealthCheckOptions { Predicate = _ => false });
        app.MapHealthChecks("/health/ready", new HealthCheckOptions { Predicate = c => c.Tags.Contains("ready") });
        return app;
    }

    /// <summary>Ready once the places and services copies are loaded (it loads them), within 5 s.</summary>
    public sealed class CatalogueHealthCheck(Slots.Places.PlaceDirectory places, Slots.Catalogue.ServiceDirectory services) : IHealthCheck
    {
        public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken)
        {
            try
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                timeout.CancelAfter(TimeSpan.FromSeconds(5));
                await places.LoadedAsync(timeout.Token);
                await services.LoadedAsync(timeout.Token);
                return HealthCheckResult.Healthy();
            }
            catch (Exception ex) when (ex is System.Data.Common.DbException or OperationCanceledException or TimeoutException)
            {
                return HealthCheckResult.Unhealthy(ex.GetType().Name);
            }
        }
    }

    /// <summary>
    /// Ready once the first week of every place is held for availability reads (it reads them, once per instance, within
    /// 5 s): a fresh instance in a stampede answered each place's first reader with a query among the bookings.
    /// </summary>
    public sealed class AvailabilityHeldCheck(Slots.Places.PlaceDirectory places, Slots.Reservations.ReservationService reservations) : IHealthCheck
    {
        public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken)
        {
            try
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
                timeout.CancelAfter(TimeSpan.FromSeconds(5));
                await reservations.HoldFirstWeeksAsync(places, timeout.Token);
                return HealthCheckResult.Healthy();
            }
            catch (Exception ex) when (ex is System.Data.Common.DbException or OperationCanceledException or TimeoutException)
            {
                return HealthCheckResult.Unhealthy(ex.GetType().Name);
            }
        }
    }

    /// <summary>Ready when the database answered this process within <see cref="Recently"/>, or answers a ping now (within 2 s).</summary>
    public sealed class DatabaseHealthCheck(IReservationStore store, DatabaseWitness witness) : IHealthCheck
    {
        /// <summary>Half of what HAProxy's checks take to call an instance down (2 misses, 1 s apart).</summary>
        public static readonly TimeSpan Recently = TimeSpan.FromSeconds(1);

        public async Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken)
        {
            if (witness.AnsweredWithin(Recently))
            {
                return HealthCheckResult.Healthy("answered a request within a second");
            }
            try
            {
                using var timeout = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
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
