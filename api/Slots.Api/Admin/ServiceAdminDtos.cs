using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Text.Json.Serialization;
using Slots.Api.Places;

namespace Slots.Api.Admin;

/// <summary>A new service of the catalogue.</summary>
public sealed record CreateServiceRequest(
    [property: Required, StringLength(32, MinimumLength = 1), RegularExpression(ServiceDto.CodePattern),
        Description("The code in URLs and deep links: 1 to 32 lower-case letters, digits or dashes; it cannot change later.")] string? Code,
    [property: Required, StringLength(ServiceLimits.Name, MinimumLength = 1), Description("The name in Slovak.")] string? NameSk,
    [property: Required, StringLength(ServiceLimits.Name, MinimumLength = 1), Description("The name in English.")] string? NameEn,
    [property: Description("For a service given in two doses: the days from the first appointment to the second; left out for one appointment.")]
    DoseIntervalRequest? SecondDose,
    [property: Description("Whether places may offer it; true when left out.")] bool? Active);

/// <summary>A service's names, second dose and state, as they are to be (its code is in the path).</summary>
public sealed record EditServiceRequest(
    [property: Required, StringLength(ServiceLimits.Name, MinimumLength = 1), Description("The name in Slovak.")] string? NameSk,
    [property: Required, StringLength(ServiceLimits.Name, MinimumLength = 1), Description("The name in English.")] string? NameEn,
    [property: Description("The days from the first appointment to the second; left out: one appointment.")] DoseIntervalRequest? SecondDose,
    [property: Description("Whether places may offer it; true when left out. An inactive service is booked nowhere.")] bool? Active);

/// <summary>Days from the first dose to the second, both bounds included.</summary>
public sealed record DoseIntervalRequest(
    [property: Required, Range(1, ServiceLimits.DoseDays), Description("The fewest days after the first dose.")] int? MinDays,
    [property: Required, Range(1, ServiceLimits.DoseDays), Description("The most days after the first dose; not below minDays.")] int? MaxDays);

/// <summary>What a place offers of a service, as it is to be.</summary>
public sealed record OfferServiceRequest(
    [property: Range(1, 10_000), Description("Seats per slot that slot generation uses when its request names none; left out: none stored.")] int? Seats,
    [property: Description("The daily slot template that slot generation uses when its request brings none; left out: none stored.")]
    TemplateRequest? Template,
    [property: Description("Whether the place offers it; true when left out.")] bool? Active);

/// <summary>A service of the catalogue, active or not, as admins see it.</summary>
public sealed record AdminServiceDto(
    [property: RegularExpression(ServiceDto.CodePattern)] string Code,
    string NameSk,
    string NameEn,
    bool Active,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull),
        Description("For a service given in two doses: the days from the first appointment to the second; absent for one appointment.")]
    DoseIntervalDto? SecondDose = null,
    [property: Description("Who may book it: everyone, or by age with its dated openings.")] EligibilityDto? Eligibility = null);

/// <summary>Who may book a service, as it is to be: everyone, or people born on or before the cut-off of the steps already open.</summary>
public sealed record SetEligibilityRequest(
    [property: Required, RegularExpression("^(everyone|age|invitation)$"),
        Description("everyone: anybody may book. age: people born on or before the date of the latest step already open (read from the birth number). "
            + "invitation: holders of a valid invitation code only.")]
    string? Rule,
    [property: MaxLength(ServiceLimits.AgeSteps),
        Description("The dated openings of an age rule, in any order: from opensAt on, people born on or before bornOnOrBefore may book. "
            + "Required (1 or more) for age, none otherwise.")]
    AgeStepRequest[]? Steps,
    [property: Description("With the age rule: whether a valid invitation code also admits a person the age steps do not (a priority group). "
        + "Always true for invitation, false for everyone; false when left out.")]
    bool? AcceptsInvitations = null);

/// <summary>One dated opening by age.</summary>
public sealed record AgeStepRequest(
    [property: Required, Description("When it opens: a date and time with its offset, e.g. 2026-12-01T08:00:00+01:00.")] string? OpensAt,
    [property: Required, Day, Description("The latest birth date it admits.")] string? BornOnOrBefore);

/// <summary>Who may book a service.</summary>
public sealed record EligibilityDto(
    [property: RegularExpression("^(everyone|age|invitation)$")] string Rule,
    IReadOnlyList<AgeStepDto> Steps,
    [property: Description("Whether a valid invitation code admits a person (always for invitation).")] bool AcceptsInvitations = false);

/// <summary>One dated opening by age: opensAt in UTC.</summary>
public sealed record AgeStepDto(string OpensAt, [property: Day] string BornOnOrBefore);

/// <summary>What a place offers of a service.</summary>
public sealed record OfferDto(
    int PlaceId,
    [property: RegularExpression(ServiceDto.CodePattern)] string Service,
    bool Active,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull),
        Description("Seats per slot that slot generation uses when its request names none; absent: none stored.")] int? Seats = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull),
        Description("The daily slot template that slot generation uses when its request brings none; absent: none stored.")] TemplateDto? Template = null);

/// <summary>A daily slot template: from firstStart, every intervalMinutes, up to and including lastStart.</summary>
public sealed record TemplateDto([property: TimeOfDay] string FirstStart, [property: TimeOfDay] string LastStart, int IntervalMinutes, int LengthMinutes);

internal static class ServiceLimits
{
    public const int AgeSteps = 50;
    public const int Name = 100;
    public const int DoseDays = 365;
}
