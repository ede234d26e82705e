using System.Text.Json;
using System.Text.Json.Serialization.Metadata;
using Microsoft.AspNetCore.Http.Features;
using Microsoft.AspNetCore.Http.HttpResults;

namespace Slots.Api.Http;

/// <summary>
/// A JSON request body, read by the endpoint filter that <see cref="JsonBodies.WithJsonBody{T}"/>
/// adds, before the handler runs. The filter answers what can go wrong itself: a missing or
/// non-JSON content type (415), an oversized body (413), malformed JSON or a value of the wrong
/// type (400 naming the field); the framework's binder would answer these with bare 400s. A
/// handler that takes a <see cref="JsonBody{T}"/> only runs with <see cref="Value"/> read.
/// </summary>
internal sealed class JsonBody<T> where T : class
{
    private T? _value;

    public T Value => _value ?? throw new InvalidOperationException($"The body was not read: map the endpoint with WithJsonBody<{typeof(T).Name}>().");

    /// <summary>Bound empty; the filter fills it (binding runs before filters, and cannot answer a problem).</summary>
    public static ValueTask<JsonBody<T>?> BindAsync(HttpContext context) => ValueTask.FromResult<JsonBody<T>?>(new JsonBody<T>());

    internal async ValueTask<IResult?> ReadAsync(HttpRequest request, JsonTypeInfo<T> type, CancellationToken ct)
    {
        if (!request.HasJsonContentType())
        {
            return Problem.Of(ProblemTypes.UnsupportedMediaType, "The body must be JSON.", "Send Content-Type: application/json.");
        }
        if (request.ContentLength > JsonBodies.MaxBytes)
        {
            return TooLarge();
        }
        if (request.HttpContext.Features.Get<IHttpMaxRequestBodySizeFeature>() is { IsReadOnly: false } limit)
        {
            limit.MaxRequestBodySize = JsonBodies.MaxBytes;
        }
        try
        {
            _value = await JsonSerializer.DeserializeAsync(request.Body, type, ct);
            return _value is null ? Problem.Invalid("body", "A JSON object is required.") : null;
        }
        catch (JsonException ex)
        {
            return Problem.Invalid(FieldOf(ex.Path), "Malformed JSON or a value of the wrong type.");
        }
        catch (BadHttpRequestException ex) when (ex.StatusCode == StatusCodes.Status413PayloadTooLarge)
        {
            return TooLarge();
        }
    }

    private static ProblemHttpResult TooLarge() =>
        Problem.Of(ProblemTypes.BodyTooLarge, "The body is too large.", $"At most {JsonBodies.MaxBytes} bytes are accepted.");

    /// <summary>"$.placeId" → "placeId"; the whole body when the path is the root or unknown.</summary>
    private static string FieldOf(string? path) =>
        string.IsNullOrEmpty(path) || path == "$" ? "body" : path.StartsWith("$.", StringComparison.Ordinal) ? path[2..] : path;
}

internal static class JsonBodies
{
    public const long MaxBytes = 16 * 1024;

    /// <summary>
    /// The endpoint takes a JSON body of <typeparamref name="T"/> through a <see cref="JsonBody{T}"/>
    /// parameter: documents it as required, and reads it in a filter that answers the problems of
    /// reading. Add it after filters that should see those problems (metrics).
    /// </summary>
    public static RouteHandlerBuilder WithJsonBody<T>(this RouteHandlerBuilder endpoint) where T : class
    {
        var type = (JsonTypeInfo<T>)SlotsJsonContext.Default.GetTypeInfo(typeof(T))!;
        return endpoint
            .Accepts<T>("application/json")
            .Problems(ProblemTypes.Body)
            .AddEndpointFilterFactory((factory, next) =>
            {
                var index = Array.FindIndex(factory.MethodInfo.GetParameters(), p => p.ParameterType == typeof(JsonBody<T>));
                if (index < 0)
                {
                    throw new InvalidOperationException($"{factory.MethodInfo.Name} has no JsonBody<{typeof(T).Name}> parameter.");
                }
                return async context =>
                {
                    var body = context.GetArgument<JsonBody<T>>(index);
                    return await body.ReadAsync(context.HttpContext.Request, type, context.HttpContext.RequestAborted) ?? await next(context);
                };
            });
    }
}
