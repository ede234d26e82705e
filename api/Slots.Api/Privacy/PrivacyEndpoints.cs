using System.ComponentModel;
using Microsoft.AspNetCore.Http.HttpResults;
using Microsoft.Extensions.Options;
using Slots.Retention;

namespace Slots.Api.Privacy;

/// <summary>What the privacy page states from the server's own settings: how long personal data is kept, and whom to ask.</summary>
internal static class PrivacyEndpoints
{
    public static IHostApplicationBuilder AddPrivacy(this IHostApplicationBuilder builder)
    {
        builder.Services.AddOptions<PrivacyOptions>().BindConfiguration(PrivacyOptions.Section)
            .Validate(o => o.Controller is null || o.Controller.Length <= 200, $"{PrivacyOptions.Section}:Controller must be at most 200 characters")
            .Validate(PrivacyOptions.HasValidEmail, $"{PrivacyOptions.Section}:ContactEmail must be an e-mail address")
            .ValidateOnStart();
        return builder;
    }

    public static IEndpointRouteBuilder MapPrivacy(this IEndpointRouteBuilder app)
    {
        app.MapGet("/api/privacy", Get).WithTags("Privacy").WithName("GetPrivacy").RequireRateLimiting(RateLimits.Reads)
            .WithSummary("How personal data is kept")
            .WithDescription("The days after an appointment when a booking's name, phone and person hash are erased "
                + "(Slots:Retention:Days, the setting the erasure job runs by), and whom people ask about their data (Slots:Privacy).")
            .Problems(ProblemTypes.Shedding);
        return app;
    }

    public static Ok<PrivacyDto> Get(IOptions<RetentionOptions> retention, IOptions<PrivacyOptions> privacy, CancellationToken ct)
    {
        var contact = privacy.Value;
        return TypedResults.Ok(new PrivacyDto(retention.Value.Days, Blank(contact.Controller), Blank(contact.ContactEmail)));
    }

    private static string? Blank(string? text) => string.IsNullOrWhiteSpace(text) ? null : text.Trim();
}

/// <summary>The privacy page's figures: retention in days after the appointment, and the contact when one is configured.</summary>
public sealed record PrivacyDto(
    [property: Description("Days after the appointment when its name, phone and person hash are erased (Slots:Retention:Days).")] int RetentionDays,
    [property: Description("The organisation responsible for the data; null when none is configured.")] string? Controller,
    [property: Description("Where people write about their data; null when none is configured.")] string? ContactEmail);
