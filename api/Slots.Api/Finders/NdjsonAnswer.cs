using System.Buffers;
using System.Globalization;

namespace Slots.Api.Finders;

/// <summary>
/// The first <c>length</c> bytes of a published NDJSON file, sent from its parts on disk: no copy of the file is ever held in
/// memory, whatever its size. Every part's file is opened before the first byte goes, so a publication that replaces this
/// one meanwhile (and deletes files it no longer needs) cannot cut the answer short: an open file stays readable.
/// </summary>
internal sealed class NdjsonAnswer(NdjsonFile file, long length, int maxAgeSeconds) : IResult
{
    public const string MediaType = "application/fhir+ndjson";

    public async Task ExecuteAsync(HttpContext httpContext)
    {
        var response = httpContext.Response;
        var ct = httpContext.RequestAborted;
        var opened = new Dictionary<string, FileStream>(StringComparer.Ordinal);
        try
        {
            foreach (var part in file.Parts)
            {
                if (!opened.ContainsKey(part.Path))
                {
                    opened[part.Path] = new FileStream(part.Path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete, 1, useAsync: true);
                }
            }
            response.StatusCode = StatusCodes.Status200OK;
            response.ContentType = MediaType;
            response.ContentLength = length;
            response.Headers.CacheControl = "public, max-age=" + maxAgeSeconds.ToString(CultureInfo.InvariantCulture);
            var buffer = ArrayPool<byte>.Shared.Rent(1 << 16);
            try
            {
                var left = length;
                foreach (var part in file.Parts)
                {
                    if (left == 0)
                    {
                        break;
                    }
                    var stream = opened[part.Path];
                    for (long done = 0, want = Math.Min(part.Length, left); done < want;)
                    {
                        var read = await RandomAccess.ReadAsync(stream.SafeFileHandle,
                            buffer.AsMemory(0, (int)Math.Min(buffer.Length, want - done)), part.Offset + done, ct);
                        if (read <= 0)
                        {
                            throw new IOException("A published file ended before its part did.");
                        }
                        await response.Body.WriteAsync(buffer.AsMemory(0, read), ct);
                        done += read;
                        left -= read;
                    }
                }
            }
            finally
            {
                ArrayPool<byte>.Shared.Return(buffer);
            }
        }
        finally
        {
            foreach (var stream in opened.Values)
            {
                await stream.DisposeAsync();
            }
        }
    }
}
