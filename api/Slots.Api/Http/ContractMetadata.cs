using System.Globalization;
using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Mvc;
using Microsoft.OpenApi;

namespace Slots.Api.Http;

/// <summary>The problem codes an endpoint (or a whole group) can answer.</summary>
internal sealed record ProblemsMetadata(IReadOnlyList<ProblemType> Types);

/// <summary>A request header an endpoint reads itself (the handlers read headers as text, so the framework cannot see them).</summary>
internal sealed record HeaderMetadata(string Name, bool Required, string Description, int? MinLength = null, int? MaxLength = null,
    string? Pattern = null, bool Phone = false);

/// <summary>A response header a client acts on (Location, ETag, Retry-After, Idempotent-Replayed), declared on one status.</summary>
internal sealed record ResponseHeaderMetadata(int Status, string Name, string Description, bool Required = true, string? Format = null);

/// <summary>
/// A query or path parameter the handler reads as text (to name it when it is wrong), documented as
/// what it must be: an integer in a range, a day, or text up to a length.
/// </summary>
internal sealed record ParameterMetadata(string Name, string Description, OpenApiSchema Schema);

/// <summary>What the OpenAPI document says about an endpoint beyond its typed results.</summary>
internal static class ContractMetadata
{
    /// <summary>
    /// The problems an endpoint can answer: one application/problem+json response per status
    /// (the framework's own ProducesResponseTypeMetadata), refined by <see cref="ContractTransformers"/>
    /// into the codes each status carries.
    /// </summary>
    public static TBuilder Problems<TBuilder>(this TBuilder builder, params ProblemType[] types) where TBuilder : IEndpointConventionBuilder
    {
        builder.WithMetadata(new ProblemsMetadata(types));
        foreach (var status in types.Select(t => t.Status).Distinct())
        {
            builder.WithMetadata(new ProducesResponseTypeMetadata(status, typeof(ProblemDetails), ["application/problem+json"]));
        }
        return builder;
    }

    public static TBuilder Header<TBuilder>(this TBuilder builder, string name, bool required, string description, int? minLength = null, int? maxLength = null,
        string? pattern = null)
        where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new HeaderMetadata(name, required, description, minLength, maxLength, pattern));

    public static TBuilder ResponseHeader<TBuilder>(this TBuilder builder, int status, string name, string description, bool required = true, string? format = null)
        where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new ResponseHeaderMetadata(status, name, description, required, format));

    /// <summary>The Location of what a 201 created.</summary>
    public static TBuilder Location<TBuilder>(this TBuilder builder) where TBuilder : IEndpointConventionBuilder =>
        builder.ResponseHeader(StatusCodes.Status201Created, "Location", "The path of what was created.", format: "uri-reference");

    public static TBuilder QueryInteger<TBuilder>(this TBuilder builder, string name, int minimum, int maximum, int @default, string description)
        where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new ParameterMetadata(name, description, new OpenApiSchema
        {
            Type = JsonSchemaType.Integer,
            Format = "int32",
            Minimum = minimum.ToString(CultureInfo.InvariantCulture),
            Maximum = maximum.ToString(CultureInfo.InvariantCulture),
            Default = @default,
        }));

    /// <summary>A path id, read as text so that "x5" or an overflow is a 400 naming it rather than a 404.</summary>
    public static TBuilder PathId<TBuilder>(this TBuilder builder, string description, bool wide = false, string name = "id")
        where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new ParameterMetadata(name, description, new OpenApiSchema
        {
            Type = JsonSchemaType.Integer,
            Format = wide ? "int64" : "int32",
            Minimum = "1",
            Maximum = (wide ? long.MaxValue : int.MaxValue).ToString(CultureInfo.InvariantCulture),
        }));

    /// <summary>An optional id in the query, read as text for the same reason as <see cref="PathId"/>.</summary>
    public static TBuilder QueryId<TBuilder>(this TBuilder builder, string name, string description)
        where TBuilder : IEndpointConventionBuilder =>
        builder.PathId(description, name: name);

    public static TBuilder QueryDay<TBuilder>(this TBuilder builder, string name, string description)
        where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new ParameterMetadata(name, description, new OpenApiSchema { Type = JsonSchemaType.String, Format = "date" }));

    public static TBuilder QueryTime<TBuilder>(this TBuilder builder, string name, string description)
        where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new ParameterMetadata(name, description, new OpenApiSchema { Type = JsonSchemaType.String, Pattern = Patterns.Time }));

    public static TBuilder QueryOneOf<TBuilder>(this TBuilder builder, string name, string description, params string[] values)
        where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new ParameterMetadata(name, description, new OpenApiSchema
        {
            Type = JsonSchemaType.String,
            Enum = [.. values.Select(v => (System.Text.Json.Nodes.JsonNode)v)],
        }));

    public static TBuilder QueryText<TBuilder>(this TBuilder builder, string name, int maxLength, string description)
        where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new ParameterMetadata(name, description, new OpenApiSchema { Type = JsonSchemaType.String, MaxLength = maxLength }));

    /// <summary>Slots-Phone or Slots-National-Id: how a person proves a reservation is theirs, never in the URL.</summary>
    public static TBuilder ContactProof<TBuilder>(this TBuilder builder) where TBuilder : IEndpointConventionBuilder =>
        builder
            .WithMetadata(new HeaderMetadata("Slots-Phone", false, "The phone number the reservation was made with. Send it or Slots-National-Id.",
                MaxLength: 32, Phone: true))
            .Header("Slots-National-Id", false, "The national id of the person the reservation is for. Send it or Slots-Phone.", 1, 40, Patterns.NationalId);

    /// <summary>The waiting-room token a booking into a place inside an open opening needs.</summary>
    public static TBuilder AdmissionToken<TBuilder>(this TBuilder builder) where TBuilder : IEndpointConventionBuilder =>
        builder.Header("Waiting-Room-Token", false,
            "Needed only while the place is inside an open waiting-room opening: the token of a join that the status answers admitted for.");
}
