using Microsoft.AspNetCore.StaticFiles;
using Microsoft.Extensions.FileProviders;
using Microsoft.Net.Http.Headers;

namespace Slots.Api.Hosting;

/// <summary>
/// Serves the SPA's build. Slots:Frontend:Root names the folder; without it the repository's
/// frontend/dist is used when it has been built, else the API's placeholder page.
/// </summary>
internal static class Frontend
{
    // Routing runs before the static files here (minimal hosting puts it first), and the static-file
    // middleware steps aside for a request that already has an endpoint. So the fallback must not
    // match a path with a file name (`nonfile`), or every asset would be answered with index.html.
    // API, health, OpenAPI and metrics paths are left out too: an unknown one stays a 404 problem.
    private const string ClientRoutes = "{*path:regex(^(?!(api|health|openapi|metrics)(/|$))):nonfile}";

    public static WebApplication UseFrontend(this WebApplication app)
    {
        var configured = app.Configuration["Slots:Frontend:Root"];
        var built = Path.GetFullPath(Path.Combine(app.Environment.ContentRootPath, "..", "..", "frontend", "dist"));
        var root = !string.IsNullOrWhiteSpace(configured) ? Path.GetFullPath(configured)
            : File.Exists(Path.Combine(built, "index.html")) ? built
            : app.Environment.WebRootPath;
        if (root is null || !Directory.Exists(root))
        {
            return app;
        }
        var files = new StaticFileOptions { FileProvider = new PhysicalFileProvider(root), OnPrepareResponse = SetCaching };
        // "/" has no value for the catch-all, which its regex refuses; the default file answers it.
        app.UseDefaultFiles(new DefaultFilesOptions { FileProvider = files.FileProvider });
        app.UseStaticFiles(files);
        app.MapFallbackToFile(ClientRoutes, "index.html", files);
        return app;
    }

    /// <summary>
    /// Vite names everything under assets/ by its content hash, so those files never change and
    /// may be kept for a year. Everything else (index.html above all, which names the current
    /// hashes) is revalidated on every load, or a release would leave browsers on the old page.
    /// </summary>
    private static void SetCaching(StaticFileResponseContext context)
    {
        var hashed = context.Context.Request.Path.StartsWithSegments("/assets", StringComparison.Ordinal);
        context.Context.Response.Headers.CacheControl = hashed ? "public, max-age=31536000, immutable" : "no-cache";
    }
}
