using System.ComponentModel;
using System.ComponentModel.DataAnnotations;
using System.Text.Json.Serialization;

namespace Slots.Api.Places;

public sealed record PlaceDto(int Id, string Name, string Address, string Region,
    [property: Description("The IANA time zone its days and times are in, e.g. Europe/Bratislava.")] string TimeZone, bool Active,
    [property: Description("Opening hours as the place states them; left out when not given.")] string? OpeningHours = null,
    [property: Description("True while an admin has closed the place to new bookings: its availability offers nothing and a booking gets place-closed.")] bool Closed = false,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull),
        Description("The services the place offers, in the order of the catalogue; only in the answer of GET /api/places/{id}.")]
    IReadOnlyList<PlaceServiceDto>? Services = null);

/// <summary>A service as one place offers it.</summary>
public sealed record PlaceServiceDto(
    [property: RegularExpression(ServiceDto.CodePattern), Description("The service's code, as GET /api/services lists it.")] string Code,
    [property: Description("The service's name in Slovak.")] string NameSk,
    [property: Description("The service's name in English.")] string NameEn,
    [property: Description("The length of one appointment in minutes, where the place has set its slot template.")] int? Minutes,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull), RegularExpression(ServiceDto.InvitationPattern),
        Description(ServiceDto.InvitationDescription)]
    string? Invitation = null);

/// <summary>One service of the catalogue.</summary>
public sealed record ServiceDto(
    [property: RegularExpression(ServiceDto.CodePattern), Description("The service's code: lower-case letters, digits and dashes, at most 32.")] string Code,
    [property: Description("The service's name in Slovak.")] string NameSk,
    [property: Description("The service's name in English.")] string NameEn,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull),
        Description("For a service given in two doses: the days from the first appointment to the second; absent for one appointment.")]
    DoseIntervalDto? SecondDose = null,
    [property: JsonIgnore(Condition = JsonIgnoreCondition.WhenWritingNull), RegularExpression(ServiceDto.InvitationPattern), Description(ServiceDto.InvitationDescription)]
    string? Invitation = null)
{
    /// <summary>What services.code holds on every backend.</summary>
    public const string CodePattern = "^[a-z0-9-]{1,32}$";

    public const string InvitationPattern = "^(required|accepted)$";

    public const string InvitationDescription =
        "Where a booking may bring an invitation code: required (invitation holders only) or accepted (a code admits a person the age rule does not yet); absent where codes play no part.";

    /// <summary>The invitation field of a service's answer, from its rule.</summary>
    internal static string? InvitationOf(Eligibility.ServiceEligibility who) =>
        who.Rule == Eligibility.EligibilityRule.InvitationOnly ? "required" : who.TakesInvitations ? "accepted" : null;
}

/// <summary>Days from the first dose to the second, both bounds included.</summary>
public sealed record DoseIntervalDto(int MinDays, int MaxDays);

public sealed record SlotDto([property: TimeOfDay] string Time, int Minutes, int Capacity, int Free);

public sealed record DayDto([property: Day] string Day, IReadOnlyList<SlotDto> Slots);

public sealed record AvailabilityDto(int PlaceId, string TimeZone, [property: Day] string From, [property: Day] string To, IReadOnlyList<DayDto> Days,
    [property: RegularExpression(ServiceDto.CodePattern), Description("The service whose slots these are.")] string Service);
