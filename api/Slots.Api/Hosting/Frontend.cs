using System.Diagnostics.CodeAnalysis;
using System.Text.RegularExpressions;
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
    // The SPA's own paths are answered with index.html by a middleware, not by a fallback endpoint:
    // a catch-all GET endpoint would be a candidate for every path, so a POST-only API route asked
    // with DELETE answered 405 with "Allow: GET, HEAD, POST" (the SPA's GET), and a GET there was a
    // 404. Only a GET or HEAD that no endpoint takes, for a path without a file name, outside the
    // API, health, OpenAPI and metrics paths, is the SPA's: an unknown API path stays a 404 problem.
    private static readonly Regex ServerPaths = new("^/(api|health|openapi|metrics)(/|$)", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant);

    // The SPA loads only its own files and talks only to its own origin (VITE_API_BASE builds for a
    // CDN are served with the CDN's headers, not these). Vite's build has no inline script or style,
    // so nothing needs 'unsafe-inline'; frame-ancestors keeps the booking form out of other sites' frames.
    private const string ContentSecurityPolicy =
        "default-src 'self'; img-src 'self' data:; object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'";

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
        var provider = new PhysicalFileProvider(root);
        var policy = PolicyFor(app.Configuration["Authentication:Schemes:Bearer:Authority"]);
        var files = new StaticFileOptions
        {
            FileProvider = provider,
            ContentTypeProvider = new PrecompressedContentTypes(),
            OnPrepareResponse = context => PrepareResponse(context, policy),
        };
        // "/" is answered by the default file; the SPA's other paths by ClientRoute.
        app.UseDefaultFiles(new DefaultFilesOptions { FileProvider = files.FileProvider });
        app.Use(next => context => ClientRoute(context, next));
        app.Use(next => context => ServePrecompressed(context, provider, next));
        app.UseStaticFiles(files);
        return app;
    }

    private static Task ClientRoute(HttpContext context, RequestDelegate next)
    {
        var request = context.Request;
        if (context.GetEndpoint() is null
            && (HttpMethods.IsGet(request.Method) || HttpMethods.IsHead(request.Method))
            && request.Path.Value is { } path && !Path.HasExtension(path) && !ServerPaths.IsMatch(path))
        {
            request.Path = "/index.html";
        }
        return next(context);
    }

    /// <summary>
    /// The build writes x.js.br and x.js.gz beside x.js (frontend/build/precompress.ts); a browser
    /// that accepts one is sent it in place of x.js, so the phone downloads about a quarter of the
    /// bytes and the API spends no CPU compressing. API answers have an endpoint and are never
    /// touched here: their JSON stays uncompressed (HAProxy may compress, see docs/page-speed.md).
    /// </summary>
    private static Task ServePrecompressed(HttpContext context, PhysicalFileProvider files, RequestDelegate next)
    {
        var request = context.Request;
        if (context.GetEndpoint() is null
            && (HttpMethods.IsGet(request.Method) || HttpMethods.IsHead(request.Method))
            && Path.HasExtension(request.Path.Value))
        {
            var path = request.Path.Value!;
            var brotli = files.GetFileInfo(path + ".br").Exists;
            var gzip = files.GetFileInfo(path + ".gz").Exists;
            if (brotli || gzip)
            {
                // Caches keep one copy per encoding, whichever this browser gets.
                context.Response.Headers.Vary = HeaderNames.AcceptEncoding;
                var (accepts, encoding) = Accepted(request, brotli, gzip);
                if (accepts)
                {
                    request.Path = path + (encoding == "br" ? ".br" : ".gz");
                    context.Response.Headers.ContentEncoding = encoding;
                }
            }
        }
        return next(context);
    }

    private static (bool Accepts, string Encoding) Accepted(HttpRequest request, bool brotli, bool gzip)
    {
        var accepted = request.GetTypedHeaders().AcceptEncoding;
        bool Accepts(string name) => accepted.Any(e => e.Value.Equals(name, StringComparison.OrdinalIgnoreCase) && e.Quality != 0);
        return brotli && Accepts("br") ? (true, "br")
            : gzip && Accepts("gzip") ? (true, "gzip")
            : (false, "");
    }

    /// <summary>
    /// Vite names everything under assets/ by its content hash, so those files never change and
    /// may be kept for a year. Everything else (index.html above all, which names the current
    /// hashes) is revalidated on every load, or a release would leave browsers on the old page.
    /// Every file goes with nosniff; the page itself with its policy and no referrer to send on.
    /// </summary>
    /// <summary>
    /// The page's policy; with staff signing in at an OpenID provider on another origin, the staff
    /// screens fetch its discovery document and token endpoint, so that origin joins connect-src.
    /// (The redirect to its login page is a navigation, which the policy does not govern.)
    /// </summary>
    internal static string PolicyFor(string? authority) =>
        Uri.TryCreate(authority, UriKind.Absolute, out var issuer)
            ? $"{ContentSecurityPolicy}; connect-src 'self' {issuer.GetLeftPart(UriPartial.Authority)}"
            : ContentSecurityPolicy;

    private static void PrepareResponse(StaticFileResponseContext context, string policy)
    {
        var headers = context.Context.Response.Headers;
        var hashed = context.Context.Request.Path.StartsWithSegments("/assets", StringComparison.Ordinal);
        headers.CacheControl = hashed ? "public, max-age=31536000, immutable" : "no-cache";
        headers.XContentTypeOptions = "nosniff";
        if (PrecompressedContentTypes.Original(context.File.Name).EndsWith(".html", StringComparison.OrdinalIgnoreCase))
        {
            headers.ContentSecurityPolicy = policy;
            headers["Referrer-Policy"] = "no-referrer";
        }
    }

    /// <summary>x.js.br and x.js.gz are x.js sent encoded: the type is the original file's.</summary>
    private sealed class PrecompressedContentTypes : IContentTypeProvider
    {
        private readonly FileExtensionContentTypeProvider _types = new();

        public static string Original(string name) =>
            name.EndsWith(".br", StringComparison.Ordinal) || name.EndsWith(".gz", StringComparison.Ordinal) ? name[..^3] : name;

        public bool TryGetContentType(string subpath, [MaybeNullWhen(false)] out string contentType) =>
            _types.TryGetContentType(Original(subpath), out contentType) || _types.TryGetContentType(subpath, out contentType);
    }
}
