using System.Text.Json;
using System.Text.Json.Nodes;
using Json.Schema;
using Microsoft.OpenApi;

namespace Slots.OpenApi.Tests.Document;

/// <summary>One operation of the document; <see cref="Location"/> is its JSON pointer in the document, under which its schemas live.</summary>
public sealed record Operation(string Id, HttpMethod Method, string Path, string Location, OpenApiOperation Model, IReadOnlyList<Parameter> Parameters)
{
    public string Name => $"{Id} ({Method.Method} {Path})";

    /// <summary>The request body's JSON media type and schema, when the operation takes one.</summary>
    public (string MediaType, IOpenApiSchema Schema, string Location, bool Required)? Body =>
        Model.RequestBody?.Content?.FirstOrDefault(c => c.Key.Contains("json", StringComparison.Ordinal)) is { Key: { } media, Value.Schema: { } schema }
            ? (media, schema, $"{Location}/requestBody/content/{ApiDocument.Escape(media)}/schema", Model.RequestBody.Required)
            : null;

    public IEnumerable<string> Statuses => Model.Responses?.Keys ?? Enumerable.Empty<string>();

    public bool Documents(int status) => Statuses.Contains(status.ToString(System.Globalization.CultureInfo.InvariantCulture));
}

public sealed record Parameter(string Name, ParameterLocation In, bool Required, IOpenApiSchema Schema, string SchemaPointer);

/// <summary>
/// The served OpenAPI document, read twice over: by Microsoft.OpenApi for its operations, parameters
/// and schemas (what requests are made from), and as JSON registered with JsonSchema.Net so any
/// schema in it, `$ref`s to #/components/schemas included, can validate a value.
/// </summary>
public sealed class ApiDocument
{
    private static readonly Uri BaseUri = new("https://slots.test/openapi/v1.json");

    private readonly JsonNode _json;
    private readonly BuildOptions _build;
    private readonly Dictionary<string, JsonSchema> _schemas = new(StringComparer.Ordinal);
    private int _inline;

    private ApiDocument(OpenApiDocument model, JsonNode json)
    {
        Model = model;
        _json = json;
        var registry = new SchemaRegistry();
        registry.Register(new JsonElementBaseDocument(JsonDocument.Parse(json.ToJsonString()).RootElement, BaseUri));
        _build = new BuildOptions { SchemaRegistry = registry };
        Operations = [.. Read(model)];
    }

    public OpenApiDocument Model { get; }

    public IReadOnlyList<Operation> Operations { get; }

    public static async Task<ApiDocument> FetchAsync(HttpClient client, CancellationToken ct)
    {
        var text = await client.GetStringAsync("/openapi/v1.json", ct);
        var read = OpenApiDocument.Parse(text, "json");
        if (read.Document is null || read.Diagnostic?.Errors.Count > 0)
        {
            throw new InvalidOperationException("Microsoft.OpenApi could not read /openapi/v1.json: "
                + string.Join("; ", read.Diagnostic?.Errors.Select(e => $"{e.Pointer}: {e.Message}") ?? []));
        }
        return new ApiDocument(read.Document, JsonNode.Parse(text)!);
    }

    /// <summary>One JSON pointer segment: ~ and / escaped.</summary>
    public static string Escape(string segment) => segment.Replace("~", "~0", StringComparison.Ordinal).Replace("/", "~1", StringComparison.Ordinal);

    /// <summary>Errors of a value against the schema at a pointer into the document; empty when it conforms.</summary>
    public IReadOnlyList<string> Validate(string schemaPointer, JsonNode? value)
    {
        var schema = SchemaAt(schemaPointer);
        using var instance = JsonDocument.Parse(value?.ToJsonString() ?? "null");
        var result = schema.Evaluate(instance.RootElement, new EvaluationOptions { OutputFormat = OutputFormat.List, RequireFormatValidation = true });
        if (result.IsValid)
        {
            return [];
        }
        return [.. (result.Details ?? []).Append(result)
            .Where(d => d.Errors is { Count: > 0 })
            .SelectMany(d => d.Errors!.Select(e => $"{(d.InstanceLocation.ToString() is { Length: > 0 } at ? at : "/")}: {e.Value}"))
            .Distinct()];
    }

    /// <summary>
    /// A schema at any pointer: component schemas through a `$ref` into the registered document;
    /// inline ones (a problem's `allOf`, a parameter's schema) copied out with their relative
    /// `$ref`s made absolute, since a pointer through "application/problem+json" is no URI fragment.
    /// </summary>
    private JsonSchema SchemaAt(string pointer)
    {
        if (_schemas.TryGetValue(pointer, out var cached))
        {
            return cached;
        }
        var node = Resolve(pointer)?.DeepClone() ?? throw new InvalidOperationException($"No schema at {pointer}.");
        Absolutize(node);
        var schema = JsonSchema.Build(JsonDocument.Parse(node.ToJsonString()).RootElement, _build, new Uri(BaseUri, $"inline/{++_inline}"));
        _schemas[pointer] = schema;
        return schema;
    }

    private JsonNode? Resolve(string pointer)
    {
        var node = _json;
        foreach (var segment in pointer.Split('/').Skip(1))
        {
            var name = segment.Replace("~1", "/", StringComparison.Ordinal).Replace("~0", "~", StringComparison.Ordinal);
            node = node is JsonArray array ? array[int.Parse(name, System.Globalization.CultureInfo.InvariantCulture)] : node?[name];
        }
        return node;
    }

    private static void Absolutize(JsonNode node)
    {
        switch (node)
        {
            case JsonObject obj:
                if (obj["$ref"] is JsonValue reference && reference.GetValue<string>() is { } target && target.StartsWith('#'))
                {
                    obj["$ref"] = BaseUri + target;
                }
                foreach (var (_, child) in obj.ToList())
                {
                    if (child is not null)
                    {
                        Absolutize(child);
                    }
                }
                break;
            case JsonArray array:
                foreach (var child in array.OfType<JsonNode>())
                {
                    Absolutize(child);
                }
                break;
        }
    }

    private static IEnumerable<Operation> Read(OpenApiDocument model)
    {
        foreach (var (path, item) in model.Paths)
        {
            foreach (var (method, operation) in item.Operations ?? [])
            {
                var pointer = $"/paths/{Escape(path)}/{method.Method.ToLowerInvariant()}";
                var parameters = (item.Parameters ?? []).Select((p, i) => (p, $"/paths/{Escape(path)}/parameters/{i}/schema"))
                    .Concat((operation.Parameters ?? []).Select((p, i) => (p, $"{pointer}/parameters/{i}/schema")))
                    .Where(p => p.p.Schema is not null && p.p.In is not null)
                    .Select(p => new Parameter(p.p.Name!, p.p.In!.Value, p.p.Required, p.p.Schema!, p.Item2))
                    .ToList();
                yield return new Operation(operation.OperationId ?? $"{method} {path}", method, path, pointer, operation, parameters);
            }
        }
    }
}
