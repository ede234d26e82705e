using System.Globalization;
using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.AspNetCore.Mvc;
using Microsoft.Extensions.Options;
using Microsoft.OpenApi;

namespace Slots.Api.Finders;

/// <summary>Availability for vaccine finders: the SMART Scheduling Links manifest and its NDJSON files, open to anyone.</summary>
internal static partial class FindersEndpoints
{
    private const string FilePattern = @"^(Location|Schedule|Slot)-[a-z0-9-]{1,64}\.ndjson$";

    public static IHostApplicationBuilder AddVaccineFinders(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<FinderOptions>().BindConfiguration(FinderOptions.Section)
            .Validate(o => o.RefreshSeconds is >= 1 and <= 3600, $"{FinderOptions.Section}:RefreshSeconds must be 1..3600")
            .Validate(o => o.Days is >= 1 and <= 366, $"{FinderOptions.Section}:Days must be 1..366")
            .Validate(o => o.Parallelism is >= 1 and <= 64, $"{FinderOptions.Section}:Parallelism must be 1..64")
            .Validate(FinderOptions.HasValidUrl, $"{FinderOptions.Section}:PublicUrl must be an absolute http(s) URL without query or fragment")
            .Validate(o => !string.IsNullOrWhiteSpace(o.ServiceSystem) && !string.IsNullOrWhiteSpace(o.ServiceCode),
                $"{FinderOptions.Section}:ServiceSystem and ServiceCode must be set")
            .ValidateOnStart();
        builder.Services.AddSingleton<Publisher>();
        return builder;
    }

    public static IEndpointRouteBuilder MapVaccineFinders(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/fhir").WithTags("Vaccine finders").RequireRateLimiting(RateLimits.Reads)
            .Problems(ProblemTypes.Shedding);
        group.MapGet("/$bulk-publish", Manifest).WithName("GetBulkPublishManifest")
            .WithSummary("SMART Scheduling Links manifest")
            .WithDescription("The bulk publication manifest of SMART Scheduling Links: FHIR R4 Location, Schedule (one per place and service) and "
                + "Slot NDJSON files, one of each per region (extension.state). Made at most once a minute and shared by every "
                + "finder; Cache-Control says how long to wait before polling again. With _since, each file lists only the resources "
                + "changed after that instant (files with none are left out).")
            .QuerySince()
            .Produces<BulkPublishManifestDto>(StatusCodes.Status200OK, "application/json")
            .ResponseHeader(StatusCodes.Status200OK, "Cache-Control", "public, max-age=<seconds until the next publication is due>")
            .Problems(ProblemTypes.ValidationFailed);
        group.MapGet("/bulk/{file}", File).WithName("GetBulkPublishFile")
            .WithSummary("A SMART Scheduling Links NDJSON file")
            .WithDescription("One file the manifest lists: a FHIR R4 resource on each line, the most recently changed first.")
            .WithMetadata(new ParameterMetadata("file", "The file's name, as the manifest's url gives it.",
                new OpenApiSchema { Type = JsonSchemaType.String, Pattern = FilePattern, MaxLength = 90 }))
            .QuerySince()
            .Produces<string>(StatusCodes.Status200OK, NdjsonAnswer.MediaType)
            .ResponseHeader(StatusCodes.Status200OK, "Cache-Control", "public, max-age=<seconds until the next publication is due>")
            .Problems(ProblemTypes.ValidationFailed, ProblemTypes.NotFound);
        return app;
    }

    private static RouteHandlerBuilder QuerySince(this RouteHandlerBuilder builder) =>
        builder.WithMetadata(new ParameterMetadata("_since", "Only resources changed after this instant (a FHIR instant with its offset, "
            + "e.g. 2026-11-26T10:00:00.000Z): pass back a manifest's transactionTime.", new OpenApiSchema { Type = JsonSchemaType.String, Format = "date-time" }));

    public static async Task<Results<Ok<BulkPublishManifestDto>, ValidationProblem>> Manifest(
        HttpContext http, [FromQuery(Name = "_since")] string? since, Publisher publisher, TimeProvider clock, IOptions<FinderOptions> options, CancellationToken ct)
    {
        if (!TrySince(since, out var sinceMs))
        {
            return Invalid();
        }
        var publication = await publisher.CurrentAsync(ct);
        var request = http.Request;
        var files = $"{request.Scheme}://{request.Host}{request.PathBase}/fhir/bulk/";
        var query = since is null ? "" : "?_since=" + Uri.EscapeDataString(since);
        var output = publication.Files
            .Where(f => sinceMs is null || f.PrefixSince(sinceMs) > 0)
            .Select(f => new BulkPublishOutputDto(f.Type, files + f.Name + query, new BulkPublishExtensionDto([f.Region])))
            .ToList();
        CacheFor(http, publication, clock, options.Value);
        return TypedResults.Ok(new BulkPublishManifestDto(Instant(publication.TransactionTime),
            $"{request.Scheme}://{request.Host}{request.PathBase}{request.Path}{request.QueryString}", output, []));
    }

    public static async Task<Results<NdjsonAnswer, ProblemHttpResult, ValidationProblem>> File(
        HttpContext http, string file, [FromQuery(Name = "_since")] string? since, Publisher publisher, TimeProvider clock, IOptions<FinderOptions> options,
        CancellationToken ct)
    {
        if (file.Length > 90 || !FileName().IsMatch(file))
        {
            return Problem.Invalid("file", "A file name as the manifest lists it, e.g. Slot-bratislavsky-kraj.ndjson.");
        }
        if (!TrySince(since, out var sinceMs))
        {
            return Invalid();
        }
        var publication = await publisher.CurrentAsync(ct);
        if (publication.Find(file) is not { } found)
        {
            return Problem.Of(ProblemTypes.NotFound, "There is no such file in the current publication.", "Read the manifest at /fhir/$bulk-publish again.");
        }
        return new NdjsonAnswer(found, found.PrefixSince(sinceMs), MaxAge(publication, clock, options.Value));
    }

    private static ValidationProblem Invalid() =>
        Problem.Invalid("_since", "A FHIR instant with seconds and an offset, e.g. 2026-11-26T10:00:00.000Z.");

    private static void CacheFor(HttpContext http, Publication publication, TimeProvider clock, FinderOptions options) =>
        http.Response.Headers.CacheControl = "public, max-age=" + MaxAge(publication, clock, options).ToString(CultureInfo.InvariantCulture);

    /// <summary>Until the next publication is due: polling sooner would get the same data.</summary>
    private static int MaxAge(Publication publication, TimeProvider clock, FinderOptions options) =>
        (int)Math.Clamp(options.RefreshSeconds - (clock.GetUtcNow() - publication.TransactionTime).TotalSeconds, 1, options.RefreshSeconds);

    /// <summary>A FHIR instant (yyyy-MM-ddThh:mm:ss[.fff] with Z or an offset), as the spec's timestamps are.</summary>
    internal static bool TrySince(string? text, out long? sinceMs)
    {
        sinceMs = null;
        if (text is null)
        {
            return true;
        }
        if (!Since().IsMatch(text)
            || !DateTimeOffset.TryParse(text, CultureInfo.InvariantCulture, DateTimeStyles.AssumeUniversal, out var instant))
        {
            return false;
        }
        sinceMs = instant.ToUnixTimeMilliseconds();
        return true;
    }

    internal static string Instant(DateTimeOffset at) =>
        at.UtcDateTime.ToString("yyyy-MM-dd'T'HH:mm:ss.fff'Z'", CultureInfo.InvariantCulture);

    // RFC 3339 (what the document's date-time means) lets t and z be lower case.
    [GeneratedRegex(@"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$", RegexOptions.IgnoreCase)]
    private static partial Regex Since();

    [GeneratedRegex(FilePattern)]
    private static partial Regex FileName();
}
