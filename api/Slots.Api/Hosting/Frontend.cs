using Microsoft.Extensions.FileProviders;

namespace Slots.Api.Hosting;

/// <summary>
/// Serves the SPA's build. Slots:Frontend:Root names the folder; without it the repository's
/// frontend/dist is used when it has been built, else the API's placeholder page.
/// </summary>
internal static class Frontend
{
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
        var files = new PhysicalFileProvider(root);
        app.UseDefaultFiles(new DefaultFilesOptions { FileProvider = files });
        app.UseStaticFiles(new StaticFileOptions { FileProvider = files });
        // Client-side routes get the SPA; unknown API paths still get their 404.
        app.MapFallbackToFile("{*path:regex(^(?!api/|health/|openapi/).*$)}", "index.html", new StaticFileOptions { FileProvider = files });
        return app;
    }
}
