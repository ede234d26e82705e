using Microsoft.AspNetCore.Server.Kestrel.Core;
using Microsoft.Extensions.Options;

namespace Slots.Api.Hosting;

/// <summary>Slots:Cors. Which other sites' pages may call the API from a browser.</summary>
internal sealed class CorsSettings
{
    public const string Section = "Slots:Cors";

    /// <summary>Exact origins (scheme, host, port), e.g. https://booking.example.org. None by default: same origin only.</summary>
    public string[] Origins { get; set; } = [];

    public bool Valid() => Origins.All(o => Uri.TryCreate(o, UriKind.Absolute, out var uri)
        && uri.Scheme is "https" or "http" && uri.AbsolutePath == "/" && o.TrimEnd('/') == uri.GetLeftPart(UriPartial.Authority));
}

/// <summary>
/// What an answer tells strangers: no Server banner (it only helps an attacker pick an exploit), no
/// caching of answers that carry personal data, and cross-origin calls only from named origins.
/// </summary>
internal static class WebSecurity
{
    /// <summary>Headers a page on another origin may read: the ones the SPA acts on.</summary>
    private static readonly string[] ExposedHeaders = ["Retry-After", "Location", "ETag", "Idempotent-Replayed"];

    public static IHostApplicationBuilder AddWebSecurity(this IHostApplicationBuilder builder)
    {
        builder.Services.Configure<KestrelServerOptions>(o => o.AddServerHeader = false);
        builder.Services.AddOptions<CorsSettings>().BindConfiguration(CorsSettings.Section)
            .Validate(o => o.Valid(), $"Configuration '{CorsSettings.Section}:Origins' must list origins as scheme://host[:port], without a path.")
            .ValidateOnStart();
        builder.Services.AddCors();
        builder.Services.AddOptions<Microsoft.AspNetCore.Cors.Infrastructure.CorsOptions>()
            .Configure<IOptions<CorsSettings>>((cors, settings) => cors.AddDefaultPolicy(p => p
                .WithOrigins(settings.Value.Origins).AllowAnyMethod().AllowAnyHeader().WithExposedHeaders(ExposedHeaders)));
        return builder;
    }

    /// <summary>
    /// Cache-Control: no-store on every answer of a PersonalData() endpoint, problems included; the
    /// CORS middleware only where origins are named: without it no answer carries CORS headers.
    /// </summary>
    public static WebApplication UseWebSecurity(this WebApplication app)
    {
        app.Use((context, next) =>
        {
            if (context.GetEndpoint()?.Metadata.GetMetadata<PersonalDataMetadata>() is not null)
            {
                context.Response.Headers.CacheControl = "no-store";
            }
            return next(context);
        });
        if (app.Services.GetRequiredService<IOptions<CorsSettings>>().Value.Origins.Length > 0)
        {
            app.UseCors();
        }
        return app;
    }
}
