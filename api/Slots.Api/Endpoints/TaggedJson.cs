using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Microsoft.Extensions.Primitives;

namespace Slots.Api.Endpoints;

/// <summary>
/// A public JSON answer with a strong entity tag (a hash of its bytes, so every instance that has
/// the same data tags it the same) and a short shared cache lifetime. A client, or a cache in
/// front, that already holds those bytes and says so in If-None-Match gets 304 and no body.
/// </summary>
internal sealed class TaggedJson : IResult
{
    private readonly byte[] _body;
    private readonly int _maxAgeSeconds;

    private TaggedJson(byte[] body, int maxAgeSeconds)
    {
        _body = body;
        _maxAgeSeconds = maxAgeSeconds;
        Span<byte> hash = stackalloc byte[SHA256.HashSizeInBytes];
        SHA256.HashData(body, hash);
        ETag = "\"" + Base64Url.EncodeToString(hash[..16]) + "\"";
    }

    public string ETag { get; }

    public static TaggedJson Of<T>(T value, JsonTypeInfo<T> type, int maxAgeSeconds) =>
        new(JsonSerializer.SerializeToUtf8Bytes(value, type), maxAgeSeconds);

    public Task ExecuteAsync(HttpContext httpContext)
    {
        var response = httpContext.Response;
        response.Headers.ETag = ETag;
        response.Headers.CacheControl = "public, max-age=" + _maxAgeSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        if (Matches(httpContext.Request.Headers.IfNoneMatch, ETag))
        {
            response.StatusCode = StatusCodes.Status304NotModified;
            return Task.CompletedTask;
        }
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = "application/json; charset=utf-8";
        response.ContentLength = _body.Length;
        return response.Body.WriteAsync(_body, httpContext.RequestAborted).AsTask();
    }

    /// <summary>If-None-Match's weak comparison (RFC 9110 13.1.2): any listed tag, weak or strong, or *.</summary>
    internal static bool Matches(StringValues ifNoneMatch, string etag)
    {
        foreach (var value in ifNoneMatch)
        {
            foreach (var part in (value ?? "").Split(',', StringSplitOptions.TrimEntries | StringSplitOptions.RemoveEmptyEntries))
            {
                var tag = part.StartsWith("W/", StringComparison.Ordinal) ? part[2..] : part;
                if (tag == "*" || tag == etag)
                {
                    return true;
                }
            }
        }
        return false;
    }
}
