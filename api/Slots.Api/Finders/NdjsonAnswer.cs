using System.Globalization;

namespace Slots.Api.Finders;

/// <summary>
/// The first <c>length</c> bytes of a published NDJSON file, sent from the file (sendfile where the OS has it): no copy of
/// the file is ever held in memory, whatever its size.
/// </summary>
internal sealed class NdjsonAnswer(string path, long length, int maxAgeSeconds) : IResult
{
    public const string MediaType = "application/fhir+ndjson";

    public async Task ExecuteAsync(HttpContext httpContext)
    {
        var response = httpContext.Response;
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = MediaType;
        response.ContentLength = length;
        response.Headers.CacheControl = "public, max-age=" + maxAgeSeconds.ToString(CultureInfo.InvariantCulture);
        if (length > 0)
        {
            await response.SendFileAsync(path, 0, length, httpContext.RequestAborted);
        }
    }
}
