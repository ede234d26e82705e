using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Places;
using Slots.Api.Reservations;
using Slots.Api.Staff;
using Slots.Catalogue;
using Slots.Places;
using Slots.Scheduling;
using Slots.Staff;
using Slots.Storage;
using Slots.Window;

namespace Slots.Api.Admin;

/// <summary>Places, slot generation, demo data, statistics and machine keys, for authenticated staff only (slots: SlotGenerationEndpoints; place edits and closes: PlaceChangesEndpoints; keys: MachineKeysEndpoints).</summary>
internal static class AdminEndpoints
{
    public static IEndpointRouteBuilder MapAdmin(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/admin").WithTags("Admin").RequireAuthorization(AdminAuth.AdminPolicy)
            .Problems([.. ProblemTypes.Shedding, ProblemTypes.Unauthenticated, ProblemTypes.Forbidden, ProblemTypes.ValidationFailed]);
        group.MapPost("/places", CreatePlace).WithName("CreatePlace").WithJsonBody<CreatePlaceRequest>().Location()
            .WithSummary("Create a place")
            .WithDescription("A new place (active unless said otherwise) in an IANA time zone. Admins only: the admin role in a token or an admin key.");
        group.MapPlaceChanges();
        group.MapServiceAdmin();
        group.MapInvitations();
        group.MapPost("/slots/generate", SlotGenerationEndpoints.Generate).WithName("GenerateSlots").WithJsonBody<GenerateSlotsRequest>()
            .WithSummary("Generate slots")
            .WithDescription("Slots of one service (service, default when left out) from a daily template for the given days (at most 366) "
                + "at the given places, or every active place; slots that exist are kept. Without a template or capacity, each place's "
                + "stored offer of the service gives them (PUT /api/admin/places/{id}/services/{code}); a place with neither gets none, "
                + "and a service other than default is generated only where the place offers it. dryRun counts without writing. "
                + "Admins only: the admin role in a token or an admin key.")
            .Problems(ProblemTypes.UnknownService);
        group.MapPost("/demo-data", SlotGenerationEndpoints.Demo).WithName("CreateDemoData").WithJsonBody<DemoDataBody>()
            .WithSummary("Create demo data")
            .WithDescription("Believable places with slots, from a seed. Admins only: the admin role in a token or an admin key.");
        // Viewers (e.g. a ministry dashboard) may read statistics but change nothing; site staff may not read them (403).
        ProblemType[] viewer = [.. ProblemTypes.Shedding, ProblemTypes.Unauthenticated, ProblemTypes.Forbidden];
        app.MapGet("/api/admin/stats", Stats).WithTags("Admin").WithName("GetStats").RequireAuthorization(AdminAuth.ViewerPolicy)
            .WithSummary("Seats, reservations and attendance per day")
            .WithDescription("Per day between from and to (default: today and the next 29 days, at most 366), at every place or at one: "
                + "slots, seats, free seats, reservations, and the bookings the door checked in or marked no-shows. Viewers and admins: the role in a token or a key.")
            .QueryDay("from", "The first day (UTC); today when left out.")
            .QueryDay("to", "The last day; 29 days after from when left out, at most 365 days after it.")
            .QueryId("placeId", "Only this place (active or not); every place when left out.")
            .QueryText("service", 32, "Only this service, by its code (GET /api/services; an inactive one too); every service when left out.")
            .Problems([.. viewer, ProblemTypes.ValidationFailed, ProblemTypes.UnknownPlace, ProblemTypes.UnknownService]);
        app.MapGet("/api/admin/services", ServiceAdminEndpoints.List).WithTags("Admin").WithName("ListAdminServices")
            .RequireAuthorization(AdminAuth.ViewerPolicy)
            .WithSummary("Every service, active or not")
            .WithDescription("The whole catalogue as stored now, inactive services too (GET /api/services lists the active ones, "
                + "from a copy up to 30 seconds old), for the statistics' filter and the admin screens. Viewers and admins.")
            .Problems(viewer);
        app.MapInvitationList(viewer);
        app.MapGet("/api/admin/jobs", Jobs).WithTags("Admin").WithName("GetJobs").RequireAuthorization(AdminAuth.ViewerPolicy)
            .WithSummary("Scheduler jobs and flush lag")
            .WithDescription("Each job's last run and how far the disk tables lag behind the hot ones. Viewers and admins: the role in a token or a key.")
            .Problems(viewer);
        app.MapMachineKeys();
        return app;
    }

    public static async Task<Results<Created<PlaceDto>, ValidationProblem>> CreatePlace(
        JsonBody<CreatePlaceRequest> request, HttpContext http, PlaceCatalog catalog, StaffService staff, CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        Required(v, "name", body.Name, 200);
        Required(v, "address", body.Address, 300);
        Required(v, "region", body.Region, 100);
        if (string.IsNullOrWhiteSpace(body.TimeZone) || body.TimeZone.Length > 100 || !TimeZoneInfo.TryFindSystemTimeZoneById(body.TimeZone, out _))
        {
            v.Add("timeZone", "An IANA time zone id is required, e.g. Europe/Bratislava.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var place = await catalog.CreateAsync(
            new NewPlace(body.Name!.Trim(), body.Address!.Trim(), body.Region!.Trim(), body.TimeZone!, body.Active ?? true), ct);
        await staff.RecordAsync(StaffMember.Of(http.User).Subject, place.Id, AuditActions.PlaceCreated, null, null, ct);
        return TypedResults.Created($"/api/places/{place.Id}", PlacesEndpoints.ToDto(place));
    }

    public static async Task<Results<Ok<StatsDto>, ProblemHttpResult, ValidationProblem>> Stats(
        string? from, string? to, string? placeId, string? service, ICatalogStore catalogue, PlaceDirectory places, ServiceDirectory services,
        TimeProvider clock, CancellationToken ct)
    {
        var v = new Validation();
        var today = DateOnly.FromDateTime(clock.GetUtcNow().UtcDateTime);
        var first = today;
        var last = today.AddDays(29);
        if (from is not null && !Formats.TryDay(from, out first))
        {
            v.Add("from", $"Use {Formats.DayFormat}.");
        }
        if (to is not null && !Formats.TryDay(to, out last))
        {
            v.Add("to", $"Use {Formats.DayFormat}.");
        }
        int? place = null;
        if (placeId is not null)
        {
            if (Formats.TryId(placeId, out int id))
            {
                place = id;
            }
            else
            {
                v.Add("placeId", Formats.PlaceIdExpected);
            }
        }
        ReservationRequests.ServiceCode(service, "service", v);
        if (v.IsValid)
        {
            DaySpan(v, first, last);
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        // A closed place keeps its history, so only an id that names no place at all is unknown.
        if (place is { } one && await places.FindAsync(one, ct) is null)
        {
            return Problem.UnknownPlace();
        }
        if (!ReservationRequests.TryServiceFilter(service, await services.AllAsync(ct), out var serviceId))
        {
            return ReservationProblems.UnknownService();
        }
        var days = await catalogue.DayTotalsAsync(first, last, place, serviceId, ct);
        return TypedResults.Ok(new StatsDto(Formats.Day(first), Formats.Day(last), service,
            days.Select(d => new DayStatsDto(Formats.Day(d.Day), d.Slots, d.Seats, d.FreeSeats, d.Reservations, d.CheckedIn, d.NoShows)).ToList()));
    }

    /// <summary>The scheduler as a person sees it: each job's last run, and how far the disk tables lag behind the hot ones.</summary>
    public static async Task<Ok<JobsDto>> Jobs(IJobRunLog runs, IWindowSync window, TimeProvider clock, CancellationToken ct)
    {
        var oldest = await window.OldestPendingChangeAsync(ct);
        var lag = oldest is { } at ? Math.Max(0, (clock.GetUtcNow() - at).TotalSeconds) : 0;
        var last = await runs.LastRunsAsync(ct);
        return TypedResults.Ok(new JobsDto(lag, oldest,
            last.Select(r => new JobRunDto(r.Job, r.StartedAt, (long)r.Duration.TotalMilliseconds, r.Rows, r.Ok, r.Instance)).ToList()));
    }

    /// <summary>An admin's range of days: 'to' on or after 'from', at most 366 days later (statistics, slot generation, capacity).</summary>
    internal static void DaySpan(Validation v, DateOnly from, DateOnly to)
    {
        if (to < from || to.DayNumber - from.DayNumber >= 366)
        {
            v.Add("to", "'to' must be on or after 'from', at most 366 days later.");
        }
    }

    internal static void Required(Validation v, string field, string? value, int max)
    {
        if (string.IsNullOrWhiteSpace(value))
        {
            v.Add(field, "Required.");
        }
        else if (value.Length > max || value.Any(char.IsControl))
        {
            v.Add(field, $"At most {max} characters, without control characters.");
        }
    }
}
