using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Places;
using Slots.Api.Staff;
using Slots.Catalogue;
using Slots.Places;
using Slots.Reservations;
using Slots.Staff;

namespace Slots.Api.Admin;

/// <summary>The campaign's services, for admins: add one, change one, say what a place offers of one (mapped in <see cref="AdminEndpoints"/>).</summary>
internal static class ServiceAdminEndpoints
{
    public static RouteGroupBuilder MapServiceAdmin(this RouteGroupBuilder admin)
    {
        admin.MapGet("/places/{id}/services", Offers).WithName("ListOffers")
            .PathId("The place's id.")
            .WithSummary("What a place offers")
            .WithDescription("Each service the place has an offer of, offered or stopped, with its stored seats per slot and slot "
                + "template, in the catalogue's order. Admins only.")
            .Problems(ProblemTypes.UnknownPlace);
        admin.MapPost("/services", Create).WithName("CreateService").WithJsonBody<CreateServiceRequest>().Location()
            .WithSummary("Add a service")
            .WithDescription("A new service of the catalogue (for example an antigen test or a vaccine dose), under a code that cannot change; "
                + "a code in use is refused naming code. Places offer it once PUT /api/admin/places/{id}/services/{code} says so. "
                + "Admins only; recorded in the audit trail.");
        admin.MapPut("/services/{code}", Update).WithName("UpdateService").WithJsonBody<EditServiceRequest>()
            .WithSummary("Change a service")
            .WithDescription("Sets the service's names, second dose and state as sent. An inactive service is booked nowhere and leaves the "
                + "places' pages. This instance sees the change at once, the others within 30 seconds. Admins only; recorded in the audit trail.")
            .Problems(ProblemTypes.UnknownService);
        admin.MapPut("/services/{code}/eligibility", ServiceEligibilityEndpoints.Set).WithName("SetServiceEligibility")
            .WithJsonBody<SetEligibilityRequest>()
            .WithSummary("Say who may book a service")
            .WithDescription("everyone, or by age: from each step's opensAt on, people born on or before its bornOnOrBefore may book "
                + "(the birth date is read from the birth number at booking and never stored; openings only widen). Each booking is "
                + "judged in the same database operation as its seat; a refusal is 403 not-eligible with the day the person's group "
                + "opens where a step says so. Replaces the rule and steps stored. This instance sees it at once, the others within "
                + "30 seconds. Admins only; recorded in the audit trail.")
            .Problems(ProblemTypes.UnknownService);
        admin.MapPut("/places/{id}/services/{code}", Offer).WithName("OfferService").WithJsonBody<OfferServiceRequest>()
            .PathId("The place's id.")
            .WithSummary("Offer a service at a place")
            .WithDescription("Sets what the place offers of the service, as sent: seats per slot and the daily slot template that slot "
                + "generation uses when its request names none, and whether it is offered. A place offering several services asks "
                + "every booking to name one. Admins only; recorded in the audit trail.")
            .Problems(ProblemTypes.UnknownPlace, ProblemTypes.UnknownService);
        return admin;
    }

    public static async Task<Ok<IReadOnlyList<AdminServiceDto>>> List(ICatalogStore store, CancellationToken ct) =>
        TypedResults.Ok<IReadOnlyList<AdminServiceDto>>([.. (await store.AllServicesAsync(ct)).OrderBy(s => s.Id).Select(ToDto)]);

    public static async Task<Results<Ok<IReadOnlyList<OfferDto>>, ProblemHttpResult, ValidationProblem>> Offers(
        string id, ICatalogStore store, PlaceDirectory places, CancellationToken ct)
    {
        if (!Formats.TryId(id, out int placeId))
        {
            return Problem.Invalid("id", Formats.PlaceIdExpected);
        }
        if (await places.FindAsync(placeId, ct) is null)
        {
            return Problem.UnknownPlace();
        }
        var services = (await store.AllServicesAsync(ct)).ToDictionary(s => s.Id);
        var offers = (await store.OffersAsync(ct))
            .Where(o => o.PlaceId == placeId && services.ContainsKey(o.ServiceId))
            .OrderBy(o => o.ServiceId)
            .Select(o => ToDto(o, services[o.ServiceId].Code));
        return TypedResults.Ok<IReadOnlyList<OfferDto>>([.. offers]);
    }

    public static async Task<Results<Created<AdminServiceDto>, ValidationProblem>> Create(
        JsonBody<CreateServiceRequest> request, HttpContext http, ServiceCatalog catalog, StaffService staff, CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        if (!ServiceCodes.IsValid(body.Code))
        {
            v.Add("code", "The code is required: 1 to 32 lower-case letters, digits or dashes.");
        }
        var service = Service(body.Code ?? "", body.NameSk, body.NameEn, body.SecondDose, body.Active, v);
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var (result, added) = await catalog.AddAsync(service!, ct);
        if (result == CatalogueWrite.CodeTaken)
        {
            return Problem.Invalid("code", "A service with this code exists; change it with PUT /api/admin/services/{code}.");
        }
        await staff.RecordAsync(StaffMember.Of(http.User).Subject, null, AuditActions.ServiceCreated, added!.Code, null, ct);
        return TypedResults.Created($"/api/admin/services/{added.Code}", ToDto(added));
    }

    public static async Task<Results<Ok<AdminServiceDto>, ProblemHttpResult, ValidationProblem>> Update(
        string code, JsonBody<EditServiceRequest> request, HttpContext http, ServiceCatalog catalog, StaffService staff, CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        var service = Service(code, body.NameSk, body.NameEn, body.SecondDose, body.Active, v);
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var (result, updated) = await catalog.UpdateAsync(service!, ct);
        if (result == CatalogueWrite.UnknownService)
        {
            return Api.Reservations.ReservationProblems.UnknownService();
        }
        await staff.RecordAsync(StaffMember.Of(http.User).Subject, null, AuditActions.ServiceUpdated, updated!.Code, null, ct);
        return TypedResults.Ok(ToDto(updated));
    }

    public static async Task<Results<Ok<OfferDto>, ProblemHttpResult, ValidationProblem>> Offer(
        string id, string code, JsonBody<OfferServiceRequest> request, HttpContext http, ServiceCatalog catalog, StaffService staff,
        CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        if (!Formats.TryId(id, out int placeId))
        {
            v.Add("id", Formats.PlaceIdExpected);
        }
        if (body.Seats is < 1 or > 10_000)
        {
            v.Add("seats", "Seats per slot: 1 to 10000.");
        }
        var template = body.Template is null ? null : SlotGenerationEndpoints.Template(body.Template, v);
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var (result, offer) = await catalog.OfferAsync(placeId, code, body.Seats, template, body.Active ?? true, ct);
        switch (result)
        {
            case CatalogueWrite.UnknownPlace:
                return Problem.UnknownPlace();
            case CatalogueWrite.UnknownService:
                return Api.Reservations.ReservationProblems.UnknownService();
        }
        await staff.RecordAsync(StaffMember.Of(http.User).Subject, placeId, AuditActions.ServiceOffered, code, null, ct);
        return TypedResults.Ok(ToDto(offer!, code));
    }

    private static OfferDto ToDto(PlaceOffer offer, string code) =>
        new(offer.PlaceId, code, offer.Active, offer.Seats,
            offer.Template is { } t
                ? new TemplateDto(Formats.Time(SlotKey.MinuteOf(t.FirstStart)), Formats.Time(SlotKey.MinuteOf(t.LastStart)), t.IntervalMinutes, t.LengthMinutes)
                : null);

    /// <summary>The service as sent, or field errors: names required, a second dose 1 ≤ minDays ≤ maxDays.</summary>
    private static ServiceInfo? Service(string code, string? nameSk, string? nameEn, DoseIntervalRequest? dose, bool? active, Validation v)
    {
        AdminEndpoints.Required(v, "nameSk", nameSk, ServiceLimits.Name);
        AdminEndpoints.Required(v, "nameEn", nameEn, ServiceLimits.Name);
        DoseInterval? interval = null;
        if (dose is not null)
        {
            if (dose.MinDays is null or < 1 or > ServiceLimits.DoseDays)
            {
                v.Add("secondDose.minDays", $"Days after the first dose: 1 to {ServiceLimits.DoseDays}.");
            }
            if (dose.MaxDays is null or < 1 or > ServiceLimits.DoseDays)
            {
                v.Add("secondDose.maxDays", $"Days after the first dose: 1 to {ServiceLimits.DoseDays}.");
            }
            else if (dose.MinDays is { } min && dose.MaxDays < min)
            {
                v.Add("secondDose.maxDays", "maxDays must not be below minDays.");
            }
            interval = v.IsValid ? new DoseInterval(dose.MinDays!.Value, dose.MaxDays!.Value) : null;
        }
        return v.IsValid ? new ServiceInfo(0, code, nameSk!.Trim(), nameEn!.Trim(), interval, active ?? true) : null;
    }

    internal static AdminServiceDto ToDto(ServiceInfo s) =>
        new(s.Code, s.NameSk, s.NameEn, s.Active, s.SecondDose is { } dose ? new DoseIntervalDto(dose.MinDays, dose.MaxDays) : null,
            ServiceEligibilityEndpoints.ToDto(s.Eligibility));
}
