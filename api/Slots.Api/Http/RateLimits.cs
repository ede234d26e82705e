using System.Globalization;
using System.Threading.RateLimiting;
using Microsoft.AspNetCore.RateLimiting;

namespace Slots.Api.Http;

public sealed class RateLimitOptions
{
    public const string Section = "Slots:RateLimits";

    /// <summary>Reservation writes per client per window. HAProxy is the first line; this catches what gets past it.</summary>
    public int WritesPerWindow { get; set; } = 30;

    /// <summary>Reads (places, availability, lookups) per client per window.</summary>
    public int ReadsPerWindow { get; set; } = 300;

    public TimeSpan Window { get; set; } = TimeSpan.FromSeconds(10);
}

/// <summary>
/// The API's own limiter, per client address (X-Forwarded-For is trusted only from the proxies
/// listed in configuration). Answers 429 with Retry-After and a problem body, not the default 503.
/// </summary>
internal static class RateLimits
{
    public const string Writes = "writes";
    public const string Reads = "reads";

    public static IHostApplicationBuilder AddRateLimits(this IHostApplicationBuilder builder)
    {
        var options = builder.Configuration.GetSection(RateLimitOptions.Section).Get<RateLimitOptions>() ?? new RateLimitOptions();
        builder.Services.AddRateLimiter(limiter =>
        {
            limiter.RejectionStatusCode = StatusCodes.Status429TooManyRequests;
            limiter.AddPolicy(Writes, http => PerClient(http, options.WritesPerWindow, options.Window));
            limiter.AddPolicy(Reads, http => PerClient(http, options.ReadsPerWindow, options.Window));
            limiter.OnRejected = async (context, ct) =>
            {
                var wait = context.Lease.TryGetMetadata(MetadataName.RetryAfter, out var retryAfter)
                    ? retryAfter : options.Window;
                context.HttpContext.RequestServices.GetRequiredService<ApiMetrics>().Shed(StatusCodes.Status429TooManyRequests, ProblemTypes.RateLimited.Code);
                context.HttpContext.Response.Headers.RetryAfter =
                    Math.Max(1, (int)Math.Ceiling(wait.TotalSeconds)).ToString(CultureInfo.InvariantCulture);
                await Problem.Of(ProblemTypes.RateLimited, "Too many requests.",
                    "Wait for the seconds in Retry-After, then retry with the same Idempotency-Key.").ExecuteAsync(context.HttpContext);
            };
        });
        return builder;
    }

    private static RateLimitPartition<string> PerClient(HttpContext http, int permits, TimeSpan window) =>
        RateLimitPartition.GetFixedWindowLimiter(
            http.Connection.RemoteIpAddress?.ToString() ?? "unknown",
            _ => new FixedWindowRateLimiterOptions { PermitLimit = permits, Window = window, QueueLimit = 0 });
}
