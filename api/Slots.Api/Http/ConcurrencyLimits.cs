using System.Diagnostics;
using Microsoft.Extensions.Options;
using Slots.Capacity;

namespace Slots.Api.Http;

/// <summary>
/// The API's adaptive admission for the paths a stampede hits: a request marked with
/// <see cref="RequireConcurrencyLimit{TBuilder}"/> is admitted only while fewer than the learnt limit are
/// in flight (<see cref="ConcurrencyLimit"/>), otherwise it hears 429 overloaded with Retry-After at
/// once, without touching the database. HAProxy's maxconn and queue stay above it as a safety net.
/// </summary>
internal static class ConcurrencyLimits
{
    /// <summary>What a turned-away request is told to wait: by then the requests in flight have long been answered.</summary>
    private const string RetryAfterSeconds = "1";

    public static IHostApplicationBuilder AddConcurrencyLimit(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<ConcurrencyLimitOptions>().BindConfiguration(ConcurrencyLimitOptions.Section)
            .Validate(o => o.Problem() is null, $"{ConcurrencyLimitOptions.Section}: TargetLatency and Window must be positive, 1 <= MinLimit <= InitialLimit <= MaxLimit, Agent an address and port, AgentHeadroom >= 0")
            .ValidateOnStart();
        builder.Services.AddSingleton(sp => new ConcurrencyLimit(sp.GetRequiredService<IOptions<ConcurrencyLimitOptions>>().Value, sp.GetRequiredService<TimeProvider>()));
        // HAProxy asks how many to send (Slots:ConcurrencyLimit:Agent), so what is past the limit waits and is shed there.
        builder.Services.AddHostedService<AdmissionAgent>();
        return builder;
    }

    /// <summary>Marks the endpoints (a group, or one) that the limit guards.</summary>
    public static TBuilder RequireConcurrencyLimit<TBuilder>(this TBuilder endpoints) where TBuilder : IEndpointConventionBuilder =>
        endpoints.WithMetadata(Guarded.Instance);

    public static IApplicationBuilder UseConcurrencyLimit(this IApplicationBuilder app)
    {
        var limit = app.ApplicationServices.GetRequiredService<ConcurrencyLimit>();
        var metrics = app.ApplicationServices.GetRequiredService<ApiMetrics>();
        metrics.Observe(limit);
        return app.Use(async (http, next) =>
        {
            var endpoint = http.GetEndpoint();
            if (endpoint?.Metadata.GetMetadata<Guarded>() is null)
            {
                await next(http);
                return;
            }
            if (!limit.TryAcquire(out var startedAt))
            {
                await RejectAsync(http, endpoint, metrics);
                return;
            }
            try
            {
                await next(http);
            }
            finally
            {
                limit.Release(startedAt);
            }
        });
    }

    private static async Task RejectAsync(HttpContext http, Endpoint endpoint, ApiMetrics metrics)
    {
        var started = Stopwatch.GetTimestamp();
        metrics.Shed(StatusCodes.Status429TooManyRequests, ProblemTypes.Overloaded.Code);
        http.Response.Headers.RetryAfter = RetryAfterSeconds;
        http.Response.Headers.CacheControl = "no-store";
        await Problem.Of(ProblemTypes.Overloaded, "Too many people are booking right now.",
            "Wait for the seconds in Retry-After, then retry with the same Idempotency-Key.").ExecuteAsync(http);
        // A booking turned away is a reservation answer too: its count and time sit beside the admitted ones'.
        if (endpoint.Metadata.GetMetadata<ReservationOperation>() is { } operation)
        {
            metrics.Handled(operation.Name, ProblemTypes.Overloaded.Code, Stopwatch.GetElapsedTime(started));
        }
    }

    private sealed class Guarded
    {
        public static readonly Guarded Instance = new();
    }
}

/// <summary>Which reservation operation an endpoint is ("reserve"), for the answers given before its handler runs.</summary>
internal sealed record ReservationOperation(string Name);
