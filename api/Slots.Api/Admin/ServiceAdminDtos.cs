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
    DoseIntervalDto? SecondDose = null);

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
    public const int Name = 100;
    public const int DoseDays = 365;
}
