using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Http.HttpResults;

namespace Slots.Api.Problems;

/// <summary>
/// Reads a JSON body with its own answers for what can go wrong: a missing or non-JSON content
/// type (415), an oversized body (413), malformed JSON or a value of the wrong type (400 naming
/// the field). The framework's binder would answer these with bare 400s.
/// </summary>
internal static class JsonBody
{
    public const long MaxBytes = 16 * 1024;

    public static async Task<(T? Value, ProblemHttpResult? Problem, ValidationProblem? Invalid)> ReadAsync<T>(HttpRequest request, JsonTypeInfo<T> type, CancellationToken ct)
        where T : class
    {
        if (!request.HasJsonContentType())
        {
            return (null, Problem.Of(StatusCodes.Status415UnsupportedMediaType, "unsupported-media-type",
                "The body must be JSON.", "Send Content-Type: application/json."), null);
        }
        if (request.ContentLength > MaxBytes)
        {
            return (null, TooLarge(), null);
        }
        if (request.HttpContext.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } limit)
        {
            limit.MaxRequestBodySize = MaxBytes;
        }
        try
        {
            var value = await JsonSerializer.DeserializeAsync(request.Body, type, ct);
            return value is null
                ? (null, null, Problem.Invalid("body", "A JSON object is required."))
                : (value, null, null);
        }
        catch (JsonException ex)
        {
            return (null, null, Problem.Invalid(FieldOf(ex.Path), "Malformed JSON or a value of the wrong type."));
        }
        catch (BadHttpRequestException ex) when (ex.StatusCode == StatusCodes.Status413PayloadTooLarge)
        {
            return (null, TooLarge(), null);
        }
    }

    private static ProblemHttpResult TooLarge() =>
        Problem.Of(StatusCodes.Status413PayloadTooLarge, "body-too-large", "The body is too large.",
            $"At most {MaxBytes} bytes are accepted.");

    /// <summary>"$.placeId" → "placeId"; the whole body when the path is the root or unknown.</summary>
    private static string FieldOf(string? path) =>
        string.IsNullOrEmpty(path) || path == "$" ? "body" : path.StartsWith("$.", StringComparison.Ordinal) ? path[2..] : path;
}
