using Scalar.AspNetCore;

namespace Slots.Api.Hosting;

/// <summary>
/// The API reference page at /scalar, drawn from /openapi/v1.json by Scalar (its script is served
/// from the package itself, so the page works on a network without the internet). /swagger, where
/// people look first, leads there.
/// </summary>
internal static class ApiReference
{
    public const string Path = "/scalar";

    public static WebApplication MapApiReference(this WebApplication app)
    {
        app.MapScalarApiReference(Path, o => o
                .WithTitle("Slots API")
                .DisableDefaultFonts()      // the fonts would come from a CDN
                .DisableTelemetry()
                .DisableAgent()
                .DisableMcp())
            .ExcludeFromDescription();
        app.MapGet("/swagger", () => TypedResults.Redirect(Path)).ExcludeFromDescription();
        return app;
    }
}
