using Microsoft.AspNetCore.Http.Metadata;
using Microsoft.AspNetCore.Mvc;

namespace Slots.Api.OpenApi;

/// <summary>The problem codes an endpoint (or a whole group) can answer.</summary>
internal sealed record ProblemsMetadata(IReadOnlyList<string> Codes);

/// <summary>A request header an endpoint reads itself (the handlers read headers as text, so the framework cannot see them).</summary>
internal sealed record HeaderMetadata(string Name, bool Required, string Description, int? MinLength = null, int? MaxLength = null);

/// <summary>A query number the handler reads as text (to name the field when it is wrong), documented as the integer it must be.</summary>
internal sealed record QueryIntegerMetadata(string Name, int Minimum, int Maximum, int Default, string Description);

/// <summary>What the OpenAPI document says about an endpoint beyond its typed results.</summary>
internal static class ContractMetadata
{
    /// <summary>
    /// The problems an endpoint can answer: one application/problem+json response per status
    /// (the framework's own ProducesResponseTypeMetadata), refined by <see cref="ContractTransformers"/>
    /// into the codes each status carries.
    /// </summary>
    public static TBuilder Problems<TBuilder>(this TBuilder builder, params string[] codes) where TBuilder : IEndpointConventionBuilder
    {
        builder.WithMetadata(new ProblemsMetadata(codes));
        foreach (var status in codes.Select(c => ProblemCatalog.Of(c).Status).Distinct())
        {
            builder.WithMetadata(new ProducesResponseTypeMetadata(status, typeof(ProblemDetails), ["application/problem+json"]));
        }
        return builder;
    }

    public static TBuilder Header<TBuilder>(this TBuilder builder, string name, bool required, string description, int? minLength = null, int? maxLength = null)
        where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new HeaderMetadata(name, required, description, minLength, maxLength));

    public static TBuilder QueryInteger<TBuilder>(this TBuilder builder, string name, int minimum, int maximum, int @default, string description)
        where TBuilder : IEndpointConventionBuilder =>
        builder.WithMetadata(new QueryIntegerMetadata(name, minimum, maximum, @default, description));

    /// <summary>Slots-Phone or Slots-National-Id: how a person proves a reservation is theirs, never in the URL.</summary>
    public static TBuilder ContactProof<TBuilder>(this TBuilder builder) where TBuilder : IEndpointConventionBuilder =>
        builder
            .Header("Slots-Phone", false, "The phone number the reservation was made with. Send it or Slots-National-Id.")
            .Header("Slots-National-Id", false, "The national id of the person the reservation is for. Send it or Slots-Phone.");

    /// <summary>The waiting-room token a booking into a place inside an open opening needs.</summary>
    public static TBuilder WaitingRoomToken<TBuilder>(this TBuilder builder) where TBuilder : IEndpointConventionBuilder =>
        builder.Header("Waiting-Room-Token", false,
            "Needed only while the place is inside an open waiting-room opening: the token of a join that the status answers admitted for.");
}
