using System.Buffers.Text;
using System.Security.Cryptography;
using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Microsoft.Net.Http.Headers;

namespace Slots.Api.Http;

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
        ETag = new EntityTagHeaderValue("\"" + Base64Url.EncodeToString(hash[..16]) + "\"");
    }

    public EntityTagHeaderValue ETag { get; }

    public static TaggedJson Of<T>(T value, JsonTypeInfo<T> type, int maxAgeSeconds) =>
        new(JsonSerializer.SerializeToUtf8Bytes(value, type), maxAgeSeconds);

    public Task ExecuteAsync(HttpContext httpContext)
    {
        var response = httpContext.Response;
        response.Headers.ETag = ETag.ToString();
        response.Headers.CacheControl = "public, max-age=" + _maxAgeSeconds.ToString(System.Globalization.CultureInfo.InvariantCulture);
        // If-None-Match compares weakly (RFC 9110 13.1.2): any listed tag, weak or strong, or *.
        if (httpContext.Request.GetTypedHeaders().IfNoneMatch.Any(t => t.Equals(EntityTagHeaderValue.Any) || t.Compare(ETag, useStrongComparison: false)))
        {
            response.StatusCode = StatusCodes.Status304NotModified;
            return Task.CompletedTask;
        }
        response.StatusCode = StatusCodes.Status200OK;
        response.ContentType = "application/json; charset=utf-8";
        response.ContentLength = _body.Length;
        return response.Body.WriteAsync(_body, httpContext.RequestAborted).AsTask();
    }
}
