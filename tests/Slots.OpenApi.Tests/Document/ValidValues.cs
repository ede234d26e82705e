using System.Globalization;
using System.Text.Json.Nodes;
using CsCheck;
using Microsoft.OpenApi;

namespace Slots.OpenApi.Tests.Document;

/// <summary>
/// CsCheck generators of values a schema accepts: type, enum, format, pattern, lengths, bounds and
/// required members as the document states them. Numbers lean to the low end of their range so a
/// generated demo-data or slot request stays small enough to run in a test.
/// </summary>
public static class ValidValues
{
    /// <summary>The days a `format: date` value is drawn from: today and the next two weeks (the bookable window).</summary>
    public const int WindowDays = 14;

    /// <summary>Values the schema accepts; <paramref name="full"/> gives every object all its members and no nulls (a baseline to break).</summary>
    public static Gen<JsonNode?> For(IOpenApiSchema schema, DateOnly today, bool full = false)
    {
        var effective = Schemas.Effective(schema);
        if (effective.Enum is { Count: > 0 } values)
        {
            // Microsoft.OpenApi keeps a null among enum values as a sentinel string
            return Gen.OneOf<JsonNode?>([.. values.Select(v => JsonNullSentinel.IsJsonNullSentinel(v) ? null : v?.DeepClone())]);
        }
        var types = Schemas.Types(effective);
        var nonNull = types.Count == 0 && (effective.Properties?.Count > 0 || effective.AllOf?.Count > 0)
            ? Object(effective, today, full)
            : types.Count == 0 ? String(effective, today) : Gen.OneOf([.. types.Select(t => Of(t, effective, today, full))]);
        return Schemas.AllowsNull(schema) && !full ? Gen.Frequency((7, nonNull), (1, Gen.Const(() => (JsonNode?)null))) : nonNull;
    }

    private static Gen<JsonNode?> Of(JsonSchemaType type, IOpenApiSchema schema, DateOnly today, bool full) => type switch
    {
        JsonSchemaType.String => String(schema, today),
        JsonSchemaType.Integer => Integer(schema),
        JsonSchemaType.Number => Number(schema),
        JsonSchemaType.Boolean => Gen.Bool.Select(b => (JsonNode?)JsonValue.Create(b)),
        JsonSchemaType.Array => Array(schema, today, full),
        _ => Object(schema, today, full),
    };

    private static Gen<JsonNode?> String(IOpenApiSchema schema, DateOnly today)
    {
        var min = schema.MinLength ?? 0;
        var max = schema.MaxLength ?? Math.Max(min, 24);
        Gen<string> text = schema.Format switch
        {
            "date" => Gen.Int[0, WindowDays - 1].Select(d => today.AddDays(d).ToString("yyyy-MM-dd", CultureInfo.InvariantCulture)),
            "date-time" => Gen.Int[1, WindowDays * 24].Select(h => DateTimeOffset.UtcNow.AddHours(h).ToString("yyyy-MM-ddTHH:mm:ssK", CultureInfo.InvariantCulture)),
            "time" => Gen.Int[0, 24 * 60 - 1].Select(m => $"{m / 60:00}:{m % 60:00}:00"),
            "uuid" => Gen.Guid.Select(g => g.ToString()),
            _ when schema.Pattern is { } pattern => Gen.Int.Select(seed =>
                PatternStrings.Sample(pattern, new Random(seed), min, max) ?? $"<no string of {min}-{max} characters matches {pattern}>"),
            _ => Gen.String[Gen.Char.AlphaNumeric, Math.Max(min, Math.Min(1, max)), Math.Min(max, Math.Max(min, 1) + 16)],
        };
        return text.Select(t => (JsonNode?)JsonValue.Create(t));
    }

    private static Gen<JsonNode?> Integer(IOpenApiSchema schema)
    {
        var (low, high) = Schemas.IntegerBounds(schema);
        var from = Schemas.Number(schema.Minimum) is null && Schemas.Number(schema.ExclusiveMinimum) is null ? Math.Max(low, 1) : low;
        var small = (int)Math.Clamp(Math.Min(high, from + 9) - from, 0, 9);
        var wide = (int)Math.Clamp(Math.Min(high, from + 100) - from, 0, 100);
        return Gen.Frequency((4, Gen.Int[0, small]), (1, Gen.Int[0, wide])).Select(offset => (JsonNode?)JsonValue.Create(from + offset));
    }

    private static Gen<JsonNode?> Number(IOpenApiSchema schema)
    {
        var low = (double)(Schemas.Number(schema.Minimum) ?? Schemas.Number(schema.ExclusiveMinimum) ?? 0m);
        var high = (double)(Schemas.Number(schema.Maximum) ?? Schemas.Number(schema.ExclusiveMaximum) ?? (decimal)low + 100);
        return Gen.Double[0, 1].Select(f => (JsonNode?)JsonValue.Create(Math.Round(low + (high - low) * (0.01 + 0.98 * f), 2)));
    }

    private static Gen<JsonNode?> Array(IOpenApiSchema schema, DateOnly today, bool full)
    {
        var min = Math.Max(schema.MinItems ?? 0, full ? 1 : 0);
        var max = Math.Min(schema.MaxItems ?? min + 3, min + 3);
        var item = For(schema.Items ?? new OpenApiSchema(), today, full);
        return item.Array[min, max].Select(items => (JsonNode?)new JsonArray([.. items]));
    }

    private static Gen<JsonNode?> Object(IOpenApiSchema schema, DateOnly today, bool full)
    {
        var (properties, required) = Schemas.Members(schema);
        var members = properties.Select(p => (p.Key, Value: For(p.Value, today, full), Required: full || required.Contains(p.Key))).ToList();
        return new ObjectGen(members);
    }

    /// <summary>Required members always, the others half the time.</summary>
    private sealed class ObjectGen(List<(string Name, Gen<JsonNode?> Value, bool Required)> members) : Gen<JsonNode?>
    {
        public override JsonNode? Generate(PCG pcg, Size? min, out Size size)
        {
            var result = new JsonObject();
            foreach (var (name, value, required) in members)
            {
                if (required || pcg.Next(2) == 0)
                {
                    result[name] = value.Generate(pcg, null, out _);
                }
            }
            size = new Size(0);
            return result;
        }
    }
}
