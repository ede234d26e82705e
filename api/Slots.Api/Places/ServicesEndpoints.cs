using Slots.Catalogue;

namespace Slots.Api.Places;

/// <summary>The campaign's services: what people can book at the places.</summary>
internal static class ServicesEndpoints
{
    // The catalogue changes rarely and each instance's copy is at most this old (ServiceDirectory).
    private const int MaxAgeSeconds = 30;

    public static IEndpointRouteBuilder MapServices(this IEndpointRouteBuilder app)
    {
        app.MapGet("/api/services", List).WithName("ListServices").WithTags("Places")
            .RequireRateLimiting(RateLimits.Reads)
            .WithSummary("List services")
            .WithDescription("The active services of the campaign (for example an antigen test or a vaccine dose), by id. "
                + "GET /api/places/{id} says which of them a place offers. The answer carries an ETag and Cache-Control: public, "
                + "max-age=30: send the ETag back in If-None-Match to get 304 and no body while nothing changed.")
            .Produces<ServiceDto[]>(StatusCodes.Status200OK, "application/json")
            .Produces(StatusCodes.Status304NotModified)
            .ResponseHeader(StatusCodes.Status200OK, "ETag", "The answer's entity tag: send it in If-None-Match to get 304 while nothing changed.")
            .ResponseHeader(StatusCodes.Status200OK, "Cache-Control", "public, max-age=30")
            .ResponseHeader(StatusCodes.Status304NotModified, "ETag", "The entity tag the client holds, still current.")
            .Header("If-None-Match", false, "The ETag of a service list the client holds.")
            .Problems(ProblemTypes.Shedding);
        return app;
    }

    public static async Task<TaggedJson> List(ServiceDirectory services, CancellationToken ct)
    {
        var active = (await services.AllAsync(ct)).Where(s => s.Active).Select(ToDto).ToArray();
        return TaggedJson.Of(active, SlotsJsonContext.Default.ServiceDtoArray, MaxAgeSeconds);
    }

    internal static ServiceDto ToDto(ServiceInfo s) =>
        new(s.Code, s.NameSk, s.NameEn, s.SecondDose is { } dose ? new DoseIntervalDto(dose.MinDays, dose.MaxDays) : null,
            ServiceDto.InvitationOf(s.Eligibility));

    internal static PlaceServiceDto ToDto(OfferedService o) =>
        new(o.Service.Code, o.Service.NameSk, o.Service.NameEn, o.Offer.Template?.LengthMinutes, ServiceDto.InvitationOf(o.Service.Eligibility));
}
