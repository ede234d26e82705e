using System.Net;
using Microsoft.AspNetCore.Builder;
using Microsoft.AspNetCore.Http;
using Microsoft.AspNetCore.Routing;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.Metrics;
using Microsoft.Extensions.Hosting;
using OpenTelemetry.Metrics;
using OpenTelemetry.Resources;
using Slots.Hosting.Staff;

namespace Slots.Hosting.Metrics;

/// <summary>
/// Every Slots.* meter this host made at /metrics in Prometheus text, on the API and the scheduler host alike.
/// Not public: it answers a caller on the same machine that came straight to the host (not through
/// a proxy), or anyone with a staff key (viewer or admin) in X-Api-Key; anyone else gets 401.
/// </summary>
public static class MetricsEndpoint
{
    public const string Path = "/metrics";

    /// <summary>The meters this host exports: the domain's (Slots.Scheduler, Slots.Sms, ...) and the API's (Slots.Api).</summary>
    public const string Meters = "Slots";

    public static IHostApplicationBuilder AddSlotsMetrics(this IHostApplicationBuilder builder)
    {
        builder.AddStaffKeys();
        // Only the meters this host's own services made (MeterScope.Local: through its IMeterFactory).
        // A provider that listened by name alone would also take another host's meters in the same
        // process as its own, and one stream serves instruments of the same name and meter: when the
        // other host stopped, this host's series would stop with it.
        builder.Metrics.EnableMetrics(Meters, instrumentName: null, listenerName: null, MeterScope.Local);
        // The service name (Slots.Api, Slots.Scheduler) tells the two hosts' series apart in target_info.
        builder.Services.AddOpenTelemetry()
            .ConfigureResource(resource => resource.AddService(builder.Environment.ApplicationName))
            .WithMetrics(metrics => metrics.AddPrometheusExporter());
        return builder;
    }

    public static IEndpointRouteBuilder MapSlotsMetrics(this IEndpointRouteBuilder app)
    {
        app.MapPrometheusScrapingEndpoint(Path, meterProvider: null, configureBranchedPipeline: pipeline => pipeline.Use(async (http, next) =>
        {
            if (await IsAllowedAsync(http))
            {
                await next(http);
                return;
            }
            http.Response.StatusCode = StatusCodes.Status401Unauthorized;
            await Results.Problem(
                type: "urn:slots:problem:unauthenticated",
                title: "An API key is required.",
                detail: $"Send a staff key in the {StaffKeys.Header} header, or scrape from the host itself.",
                statusCode: StatusCodes.Status401Unauthorized,
                extensions: new Dictionary<string, object?> { ["code"] = "unauthenticated" }).ExecuteAsync(http);
        }), optionsName: null);
        return app;
    }

    /// <summary>
    /// A loopback peer with no forwarding header came to the host directly; one behind a proxy on the
    /// same machine (HAProxy on loopback) brings X-Forwarded-For (or, once the API has read it,
    /// X-Original-For), so it needs a key like everyone else.
    /// </summary>
    private static async ValueTask<bool> IsAllowedAsync(HttpContext http)
    {
        var direct = http.Connection.RemoteIpAddress is { } peer && IPAddress.IsLoopback(peer)
            && !http.Request.Headers.ContainsKey("X-Forwarded-For")
            && !http.Request.Headers.ContainsKey("X-Original-For");
        return direct || await http.RequestServices.GetRequiredService<StaffKeys>()
            .FindAsync(http.Request.Headers[StaffKeys.Header], http.RequestAborted) is not null;
    }
}
