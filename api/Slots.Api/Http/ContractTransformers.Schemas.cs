using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Globalization;
using System.Text.Json.Nodes;
using Microsoft.AspNetCore.Authorization;
using Microsoft.AspNetCore.OpenApi;
using Microsoft.Extensions.Options;
using Microsoft.OpenApi;
using Slots.Hosting.Staff;
using Slots.Persons;

namespace Slots.Api.Http;

/// <summary>The schema transformer: what each schema states (formats, patterns, lengths, ranges, enums), as the server enforces it.</summary>
internal static partial class ContractTransformers
{
    /// <summary>
    /// What a member's attributes say, in its schema: required (and then never null), ranges,
    /// lengths, patterns, enums, day and time formats, descriptions. The attributes sit on the
    /// records in each feature's DTO file; the handlers enforce the same rules.
    /// </summary>
    private static Task Schema(OpenApiSchema schema, OpenApiSchemaTransformerContext context)
    {
        var type = context.JsonTypeInfo;
        if (type.Kind != System.Text.Json.Serialization.Metadata.JsonTypeInfoKind.Object || type.Type.Namespace?.StartsWith("Slots.Api", StringComparison.Ordinal) != true
            || schema.Properties is null)
        {
            return Task.CompletedTask;
        }
        var isRequest = type.Type.GetConstructors().Any(c => c.GetParameters().Length > 0) && type.Type.Name.EndsWith("Request", StringComparison.Ordinal)
            || type.Type.Name.EndsWith("Body", StringComparison.Ordinal);
        if (isRequest)
        {
            // Requests are read field by field and a missing member is answered with its name, so only [Required] ones are required.
            schema.Required?.Clear();
        }
        foreach (var property in type.Properties)
        {
            if (!schema.Properties.TryGetValue(property.Name, out var member) || member is not OpenApiSchema target
                || property.AttributeProvider is not { } attributes)
            {
                continue;
            }
            foreach (var attribute in attributes.GetCustomAttributes(true))
            {
                switch (attribute)
                {
                    case RequiredAttribute:
                        schema.Required ??= new HashSet<string>();
                        schema.Required.Add(property.Name);
                        target.Type &= ~JsonSchemaType.Null;
                        break;
                    case RangeAttribute range:
                        target.Minimum = Convert.ToString(range.Minimum, CultureInfo.InvariantCulture);
                        target.Maximum = Convert.ToString(range.Maximum, CultureInfo.InvariantCulture);
                        break;
                    case StringLengthAttribute length:
                        target.MinLength = length.MinimumLength > 0 ? length.MinimumLength : null;
                        target.MaxLength = length.MaximumLength;
                        break;
                    case MaxLengthAttribute items:
                        target.MaxItems = items.Length;
                        break;
                    case RegularExpressionAttribute regex:
                        target.Pattern = regex.Pattern;
                        break;
                    case AllowedValuesAttribute allowed:
                        target.Enum = [.. allowed.Values.OfType<object>().Select(v => (JsonNode)JsonValue.Create(v.ToString())!)];
                        if (target.Type?.HasFlag(JsonSchemaType.Null) == true)
                        {
                            target.Enum.Add(null!);
                        }
                        break;
                    case DayAttribute:
                        target.Format = "date";
                        break;
                    case TimeOfDayAttribute:
                        target.Pattern = Patterns.Time;
                        break;
                    case PhoneInputAttribute:
                        target.Pattern = Patterns.Phone(Options(context.ApplicationServices).DefaultCountryCode);
                        break;
                    case DescriptionAttribute description:
                        target.Description = description.Description;
                        break;
                    case NullWhenNoneAttribute:
                        schema.Required?.Remove(property.Name);
                        break;
                }
            }
        }
        return Task.CompletedTask;
    }
}
