using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Staff;
using Slots.Catalogue;
using Slots.Staff;

namespace Slots.Api.Admin;

/// <summary>Slots from a daily template, and demo data, for admins (mapped in <see cref="AdminEndpoints"/>).</summary>
internal static class SlotGenerationEndpoints
{
    public static async Task<Results<Ok<GenerateSlotsDto>, ProblemHttpResult, ValidationProblem>> Generate(
        JsonBody<GenerateSlotsRequest> request, HttpContext http, SlotGenerator generator, ServiceDirectory services, StaffService staff,
        TimeProvider clock, CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        var yesterday = DateOnly.FromDateTime(clock.GetUtcNow().UtcDateTime).AddDays(-1);
        if (!Formats.TryDay(body.From, out var from))
        {
            v.Add("from", $"The first day is required, as {Formats.DayFormat}.");
        }
        else if (from < yesterday)
        {
            v.Add("from", "Slots cannot be generated for past days.");
        }
        if (!Formats.TryDay(body.To, out var to))
        {
            v.Add("to", $"The last day is required, as {Formats.DayFormat}.");
        }
        else if (v.IsValid)
        {
            AdminEndpoints.DaySpan(v, from, to);
        }
        var template = body.Template is null ? null : Template(body.Template, v);
        if (body.Capacity is < 1 or > 10_000)
        {
            v.Add("capacity", "Seats per slot: 1 to 10000.");
        }
        if (body.PlaceIds is { Length: > 1000 } || body.PlaceIds?.Any(id => id < 1) == true)
        {
            v.Add("placeIds", "At most 1000 positive place ids; leave empty for every active place.");
        }
        Reservations.ReservationRequests.ServiceCode(body.Service, "service", v);
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var service = ServiceIds.Default;
        if (body.Service is not null)
        {
            // Read fresh: a service just added on another instance can have its slots at once.
            services.Invalidate();
            if ((await services.AllAsync(ct)).FirstOrDefault(s => s.Code == body.Service) is not { } named)
            {
                return Reservations.ReservationProblems.UnknownService();
            }
            service = named.Id;
        }
        var result = await generator.GenerateAsync(
            new GenerateSlots(body.PlaceIds ?? [], from, to, template, body.Capacity, body.DryRun ?? false, service), ct);
        if (!(body.DryRun ?? false))
        {
            // One row per place named, or one for "every active place".
            var range = $"{Formats.Day(from)}..{Formats.Day(to)}";
            var actor = StaffMember.Of(http.User).Subject;
            foreach (var place in body.PlaceIds is { Length: > 0 } ids ? ids.Distinct().Select(id => (int?)id) : [null])
            {
                await staff.RecordAsync(actor, place, AuditActions.SlotsGenerated, range, null, ct);
            }
        }
        return TypedResults.Ok(new GenerateSlotsDto(result.Places, result.SlotsCreated, result.SlotsExisting, result.SeatsCreated, body.DryRun ?? false));
    }

    public static async Task<Results<Ok<DemoDataDto>, ValidationProblem>> Demo(
        JsonBody<DemoDataBody> request, DemoData demo, StaffService staff, HttpContext http, CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        if (body.Places is < 1 or > 500)
        {
            v.Add("places", "1 to 500 places.");
        }
        if (body.Days is < 1 or > 60)
        {
            v.Add("days", "1 to 60 days.");
        }
        if (body.Capacity is < 1 or > 100)
        {
            v.Add("capacity", "1 to 100 seats per slot.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var result = await demo.CreateAsync(new DemoDataRequest(body.Places ?? 10, body.Days ?? 14, body.Capacity ?? 4, body.Seed), ct);
        await staff.RecordAsync(StaffMember.Of(http.User).Subject, null, AuditActions.DemoDataCreated,
            $"{result.PlacesCreated} places, {result.Slots.SlotsCreated} slots", null, ct);
        return TypedResults.Ok(new DemoDataDto(result.PlacesCreated, result.Slots.SlotsCreated, result.Slots.SeatsCreated));
    }

    internal static SlotTemplate? Template(TemplateRequest t, Validation v)
    {
        if (!Formats.TryTime(t.FirstStart, out var first))
        {
            v.Add("template.firstStart", "Use HH:mm.");
        }
        if (!Formats.TryTime(t.LastStart, out var last))
        {
            v.Add("template.lastStart", "Use HH:mm.");
        }
        else if (last < first)
        {
            v.Add("template.lastStart", "The last start must not be before the first.");
        }
        if (t.IntervalMinutes is null or < 5 or > 720)
        {
            v.Add("template.intervalMinutes", "5 to 720 minutes.");
        }
        if (t.LengthMinutes is null or < 5 or > 720)
        {
            v.Add("template.lengthMinutes", "5 to 720 minutes.");
        }
        return v.IsValid ? new SlotTemplate(first, last, t.IntervalMinutes!.Value, t.LengthMinutes!.Value) : null;
    }
}
