namespace Slots.Catalogue;

/// <summary>
/// One service of the campaign's catalogue (table services): what people book at the places, for
/// example an antigen test or a vaccine dose. Code is the slug in URLs, deep links and FHIR ids;
/// SecondDose is the interval to the second appointment of a two-dose service, null for one visit.
/// Who is who may book it (null: everyone, as a service without an eligibility row).
/// </summary>
public sealed record ServiceInfo(int Id, string Code, string NameSk, string NameEn, DoseInterval? SecondDose, bool Active,
    Eligibility.ServiceEligibility? Who = null)
{
    /// <summary>Who may book the service: its stored rule, or everyone.</summary>
    public Eligibility.ServiceEligibility Eligibility => Who ?? Slots.Eligibility.ServiceEligibility.Everyone(Id);
}

/// <summary>Days from the first dose to the second, both bounds included.</summary>
public sealed record DoseInterval(int MinDays, int MaxDays);

/// <summary>
/// A service as one place offers it (table place_services): seats per slot and the slot template,
/// each null until an admin sets it (a place created before services, or just created, has neither).
/// </summary>
public sealed record PlaceOffer(int PlaceId, int ServiceId, int? Seats, SlotTemplate? Template, bool Active);
