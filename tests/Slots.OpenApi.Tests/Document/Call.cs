using System.Globalization;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;
using System.Text.Json.Nodes;
using Microsoft.OpenApi;

namespace Slots.OpenApi.Tests.Document;

/// <summary>One generated request: a value per parameter sent, and the body (absent, or JSON under a content type).</summary>
public sealed class Call(Operation operation)
{
    public Operation Operation { get; } = operation;

    public Dictionary<Parameter, JsonNode?> Parameters { get; } = [];

    public bool HasBody { get; set; }

    public JsonNode? Body { get; set; }

    public string? ContentType { get; set; }

    /// <summary>The parameters that name a real resource (the rest were drawn from their schemas).</summary>
    public HashSet<string> Seeded { get; } = new(StringComparer.Ordinal);

    public Call Copy()
    {
        var copy = new Call(Operation) { HasBody = HasBody, Body = Body?.DeepClone(), ContentType = ContentType };
        copy.Seeded.UnionWith(Seeded);
        foreach (var (parameter, value) in Parameters)
        {
            copy.Parameters[parameter] = value?.DeepClone();
        }
        return copy;
    }

    /// <summary>How a value travels in a path, query or header: strings as they are, anything else as its JSON text.</summary>
    public static string Wire(JsonNode? value) =>
        value is JsonValue v && v.TryGetValue<string>(out var text) ? text : value?.ToJsonString() ?? "";

    public HttpRequestMessage ToHttp(ApiDocument document, string adminKey)
    {
        var path = Operation.Path;
        var query = new List<string>();
        var request = new HttpRequestMessage(Operation.Method, "/");
        foreach (var (parameter, value) in Parameters)
        {
            var wire = Wire(value);
            switch (parameter.In)
            {
                case ParameterLocation.Path:
                    path = path.Replace("{" + parameter.Name + "}", Uri.EscapeDataString(wire), StringComparison.Ordinal);
                    break;
                case ParameterLocation.Query:
                    query.Add($"{Uri.EscapeDataString(parameter.Name)}={Uri.EscapeDataString(wire)}");
                    break;
                case ParameterLocation.Header:
                    request.Headers.TryAddWithoutValidation(parameter.Name, wire);
                    break;
            }
        }
        request.RequestUri = new Uri(path + (query.Count > 0 ? "?" + string.Join('&', query) : ""), UriKind.Relative);
        foreach (var header in ApiKeyHeaders(document))
        {
            request.Headers.TryAddWithoutValidation(header, adminKey);
        }
        if (HasBody)
        {
            request.Content = new StringContent(Body?.ToJsonString() ?? "null", Encoding.UTF8);
            request.Content.Headers.ContentType = ContentType is null ? null : new MediaTypeHeaderValue(ContentType);
        }
        return request;
    }

    public string Describe()
    {
        var parts = Parameters.Select(p => $"{p.Key.In.ToString().ToLowerInvariant()} {p.Key.Name}={Wire(p.Value)}").ToList();
        if (HasBody)
        {
            parts.Add($"body ({ContentType ?? "no content type"}) {Body?.ToJsonString() ?? "null"}");
        }
        return parts.Count == 0 ? "no parameters" : string.Join(", ", parts);
    }

    /// <summary>The headers of the operation's API-key security scheme, where it names one: the staff key travels there.</summary>
    private IEnumerable<string> ApiKeyHeaders(ApiDocument document) =>
        (Operation.Model.Security ?? document.Model.Security ?? [])
            .SelectMany(requirement => requirement.Keys)
            .Where(scheme => scheme.Type == SecuritySchemeType.ApiKey && scheme.In == ParameterLocation.Header && scheme.Name is not null)
            .Select(scheme => scheme.Name!)
            .Distinct();
}

/// <summary>What came back: status, media type (without parameters) and body.</summary>
public sealed record Answer(int Status, string? MediaType, string Text)
{
    public static async Task<Answer> ReadAsync(HttpResponseMessage response, CancellationToken ct) =>
        new((int)response.StatusCode, response.Content.Headers.ContentType?.MediaType, await response.Content.ReadAsStringAsync(ct));

    public string StatusText => Status.ToString(CultureInfo.InvariantCulture);

    public JsonNode? Json()
    {
        try
        {
            return Text.Length == 0 ? null : JsonNode.Parse(Text);
        }
        catch (JsonException)
        {
            return null;
        }
    }

    public string Summary() => $"{Status} {MediaType ?? "(no content type)"} {(Text.Length > 300 ? Text[..300] + "…" : Text)}";
}
