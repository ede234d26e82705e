using System.Text.Json.Nodes;
using CsCheck;
using Microsoft.OpenApi;

namespace Slots.OpenApi.Tests.Document;

public enum BreakKind
{
    /// <summary>A parameter or body field missing or out of its schema: 400 naming it.</summary>
    Value,
    /// <summary>The body under a content type the operation does not take: 415 where documented.</summary>
    ContentType,
    /// <summary>A required body left out: 400 or 415, whichever the operation documents.</summary>
    MissingBody,
}

/// <summary>A valid request with exactly one constraint of the document broken.</summary>
public sealed record Break(string Target, string Constraint, string? Field, Call Call, BreakKind Kind = BreakKind.Value);

/// <summary>
/// Every constraint the document states for an operation, broken one at a time: a required
/// parameter or member left out, a value of another type, null where null is not allowed, a value
/// outside its enum, pattern, lengths, bounds or format, too few or too many items.
/// </summary>
public static class ConstraintBreaks
{
    public static IEnumerable<Break> For(Call baseline, DateOnly today, PCG pcg)
    {
        var operation = baseline.Operation;
        foreach (var parameter in operation.Parameters)
        {
            var target = $"{parameter.In.ToString().ToLowerInvariant()} {parameter.Name}";
            var valid = baseline.Parameters.TryGetValue(parameter, out var sent) ? sent : ValidValues.For(parameter.Schema, today, full: true).Generate(pcg, null, out _);
            // A header's value loses its leading and trailing whitespace on the wire (RFC 9110, 5.5): the breaks start
            // from the value the server reads, or one a space past maxLength would arrive within it.
            if (parameter.In == ParameterLocation.Header && valid is JsonValue value && value.TryGetValue(out string? text))
            {
                valid = JsonValue.Create(text.Trim());
            }
            // a path without one of its segments is another route, not this operation without a value
            if (parameter.Required && parameter.In != ParameterLocation.Path)
            {
                var missing = baseline.Copy();
                missing.Parameters.Remove(parameter);
                yield return new Break(target, "required", parameter.Name, missing);
            }
            foreach (var (constraint, bad) in Values(parameter.Schema, valid, wire: true))
            {
                var broken = baseline.Copy();
                broken.Parameters[parameter] = bad;
                yield return new Break(target, constraint, parameter.Name, broken);
            }
        }
        if (operation.Body is not { } body || baseline.Body is null)
        {
            yield break;
        }
        var plain = baseline.Copy();
        plain.ContentType = "text/plain";
        yield return new Break("body", "content type " + body.MediaType, null, plain, BreakKind.ContentType);
        if (body.Required)
        {
            var none = baseline.Copy();
            none.HasBody = false;
            none.Body = null;
            none.ContentType = null;
            yield return new Break("body", "required", null, none, BreakKind.MissingBody);
        }
        foreach (var (path, constraint, bad, remove) in Members(body.Schema, baseline.Body, "", today, pcg))
        {
            var broken = baseline.Copy();
            Set(broken.Body!, path, bad, remove);
            yield return new Break("body " + path, constraint, path, broken);
        }
    }

    private static IEnumerable<(string Path, string Constraint, JsonNode? Bad, bool Remove)> Members(IOpenApiSchema schema, JsonNode valid, string path, DateOnly today, PCG pcg)
    {
        if (valid is not JsonObject obj)
        {
            yield break;
        }
        var (properties, required) = Schemas.Members(schema);
        foreach (var (name, property) in properties)
        {
            var at = path.Length == 0 ? name : $"{path}.{name}";
            var value = obj[name] ?? ValidValues.For(property, today, full: true).Generate(pcg, null, out _);
            if (required.Contains(name))
            {
                yield return (at, "required", null, true);
            }
            foreach (var (constraint, bad) in Values(property, value, wire: false))
            {
                yield return (at, constraint, bad, false);
            }
            var effective = Schemas.Effective(property);
            if (value is JsonObject)
            {
                foreach (var inner in Members(effective, value, at, today, pcg))
                {
                    yield return inner;
                }
            }
            if (effective.Items is { } items && value is JsonArray { Count: > 0 } array)
            {
                foreach (var (constraint, bad) in Values(items, array[0], wire: false))
                {
                    yield return ($"{at}[0]", constraint, new JsonArray(bad), false);
                }
            }
        }
    }

    /// <summary>Values that break one constraint of a schema each; <paramref name="wire"/> for parameters, where every value travels as text.</summary>
    private static IEnumerable<(string Constraint, JsonNode? Bad)> Values(IOpenApiSchema schema, JsonNode? valid, bool wire)
    {
        var s = Schemas.Effective(schema);
        var types = Schemas.Types(s);
        var named = string.Join("|", types.Select(t => t.ToString().ToLowerInvariant()));
        if (!wire && types.Count > 0 && !Schemas.AllowsNull(schema))
        {
            yield return ($"type {named}: null", null);
        }
        if (types.Count > 0 && !types.Contains(JsonSchemaType.String))
        {
            yield return ($"type {named}: a string", JsonValue.Create(wire ? "x" + Call.Wire(valid) : Call.Wire(valid)));
        }
        else if (!wire && types.Count > 0 && !types.Contains(JsonSchemaType.Number) && !types.Contains(JsonSchemaType.Integer))
        {
            yield return ($"type {named}: a number", JsonValue.Create(12345));
        }
        if (s.Enum is { Count: > 0 } values)
        {
            yield return ($"enum [{string.Join(", ", values.Select(v => JsonNullSentinel.IsJsonNullSentinel(v) ? "null" : v?.ToJsonString()))}]",
                values.Where(v => !JsonNullSentinel.IsJsonNullSentinel(v)).All(v => v is JsonValue n && n.TryGetValue<long>(out _))
                    ? JsonValue.Create(values.Where(v => !JsonNullSentinel.IsJsonNullSentinel(v)).Max(v => v!.GetValue<long>()) + 1)
                    : JsonValue.Create("zz-not-in-enum"));
        }
        if (valid is JsonValue text && text.TryGetValue<string>(out var str) && types.Contains(JsonSchemaType.String))
        {
            foreach (var broken in Strings(s, str))
            {
                yield return broken;
            }
        }
        if (types.Contains(JsonSchemaType.Integer) || types.Contains(JsonSchemaType.Number))
        {
            var (low, high) = Schemas.IntegerBounds(s);
            if (Schemas.Number(s.Minimum) is not null || Schemas.Number(s.ExclusiveMinimum) is not null)
            {
                yield return ($"minimum {s.Minimum ?? s.ExclusiveMinimum + " (exclusive)"}", JsonValue.Create(low - 1));
            }
            if (Schemas.Number(s.Maximum) is not null || Schemas.Number(s.ExclusiveMaximum) is not null)
            {
                yield return ($"maximum {s.Maximum ?? s.ExclusiveMaximum + " (exclusive)"}", JsonValue.Create(high + 1));
            }
            else if (s.Format == "int32")
            {
                yield return ("format int32", JsonValue.Create((long)int.MaxValue + 1));
            }
        }
        if (types.Contains(JsonSchemaType.Array) && valid is JsonArray array)
        {
            if (s.MinItems is > 0)
            {
                yield return ($"minItems {s.MinItems}", new JsonArray());
            }
            if (s.MaxItems is { } maxItems && array.Count > 0)
            {
                yield return ($"maxItems {maxItems}", new JsonArray([.. Enumerable.Range(0, maxItems + 1).Select(_ => array[0]?.DeepClone())]));
            }
        }
    }

    private static IEnumerable<(string Constraint, JsonNode? Bad)> Strings(IOpenApiSchema s, string valid)
    {
        var min = s.MinLength ?? 0;
        var max = s.MaxLength ?? int.MaxValue;
        if (s.Pattern is { } pattern && PatternStrings.Breaking(pattern, valid, min, max) is { } unmatched)
        {
            yield return ($"pattern {pattern}", JsonValue.Create(unmatched));
        }
        if (min > 0)
        {
            yield return ($"minLength {min}", JsonValue.Create(valid.Length >= min - 1 ? valid[..(min - 1)] : new string('a', min - 1)));
        }
        if (s.MaxLength is not null)
        {
            var pad = valid.Length > 0 ? valid[^1] : 'a';
            yield return ($"maxLength {max}", JsonValue.Create(valid.PadRight(max + 1, pad)[..(max + 1)]));
        }
        string? malformed = s.Format switch
        {
            "date" => "31.12.2030",
            "date-time" => "31.12.2030 08:00",
            "time" => "8 o'clock",
            "uuid" => "not-a-uuid",
            _ => null,
        };
        if (malformed is not null)
        {
            yield return ($"format {s.Format}", JsonValue.Create(malformed));
        }
    }

    /// <summary>Sets (or removes) the member at a dotted path, "[0]" for an array's first item.</summary>
    private static void Set(JsonNode root, string path, JsonNode? value, bool remove)
    {
        var names = path.Replace("[0]", "", StringComparison.Ordinal).Split('.');
        var parent = root;
        foreach (var name in names[..^1])
        {
            parent = parent[name] ??= new JsonObject();
        }
        if (remove)
        {
            parent.AsObject().Remove(names[^1]);
        }
        else
        {
            parent[names[^1]] = value;
        }
    }
}
