using System.Globalization;
using Microsoft.OpenApi;

namespace Slots.OpenApi.Tests.Document;

/// <summary>What a schema of the document allows, read the one way the generators and the breaks both use.</summary>
public static class Schemas
{
    /// <summary>The schema's types other than null; empty when it names none (any value).</summary>
    public static IReadOnlyList<JsonSchemaType> Types(IOpenApiSchema schema)
    {
        var type = schema.Type ?? 0;
        return [.. Enum.GetValues<JsonSchemaType>().Where(t => t != JsonSchemaType.Null && type.HasFlag(t))];
    }

    public static bool AllowsNull(IOpenApiSchema schema) =>
        (schema.Type ?? 0).HasFlag(JsonSchemaType.Null)
        || (schema.OneOf ?? []).Concat(schema.AnyOf ?? []).Any(AllowsNull);

    /// <summary>
    /// The schema a value is made from: the non-null branch of a `oneOf: [null, X]` (how OpenAPI 3.1
    /// spells a nullable reference), or the schema itself.
    /// </summary>
    public static IOpenApiSchema Effective(IOpenApiSchema schema)
    {
        var branches = (schema.OneOf ?? []).Concat(schema.AnyOf ?? []).Where(b => b.Type != JsonSchemaType.Null).ToList();
        return schema.Type is null && branches.Count == 1 ? Effective(branches[0]) : schema;
    }

    /// <summary>Properties and required names of an object schema, `allOf` members merged.</summary>
    public static (IReadOnlyDictionary<string, IOpenApiSchema> Properties, IReadOnlySet<string> Required) Members(IOpenApiSchema schema)
    {
        var properties = new Dictionary<string, IOpenApiSchema>(StringComparer.Ordinal);
        var required = new HashSet<string>(StringComparer.Ordinal);
        foreach (var part in (schema.AllOf ?? []).Append(schema))
        {
            var effective = Effective(part);
            foreach (var (name, property) in effective.Properties ?? new Dictionary<string, IOpenApiSchema>())
            {
                properties[name] = property;
            }
            required.UnionWith(effective.Required ?? new HashSet<string>());
        }
        return (properties, required);
    }

    public static decimal? Number(string? text) =>
        decimal.TryParse(text, NumberStyles.Float, CultureInfo.InvariantCulture, out var value) ? value : null;

    /// <summary>The inclusive bounds of an integer schema: its minimum/maximum (exclusive ones moved in by one) and its format.</summary>
    public static (long Min, long Max) IntegerBounds(IOpenApiSchema schema)
    {
        var (low, high) = schema.Format == "int32" ? (int.MinValue, (long)int.MaxValue) : (long.MinValue, long.MaxValue);
        if (Number(schema.Minimum) is { } min)
        {
            low = Math.Max(low, (long)Math.Ceiling(min));
        }
        if (Number(schema.ExclusiveMinimum) is { } exclusiveMin)
        {
            low = Math.Max(low, (long)Math.Floor(exclusiveMin) + 1);
        }
        if (Number(schema.Maximum) is { } max)
        {
            high = Math.Min(high, (long)Math.Floor(max));
        }
        if (Number(schema.ExclusiveMaximum) is { } exclusiveMax)
        {
            high = Math.Min(high, (long)Math.Ceiling(exclusiveMax) - 1);
        }
        return (low, high);
    }
}
