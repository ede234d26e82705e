using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Admin;
using Slots.Api.Contracts;
using Slots.Api.OpenApi;
using Slots.Api.Problems;
using Slots.Catalogue;
using Slots.Places;
using Slots.Scheduling;
using Slots.Storage;
using Slots.Window;

namespace Slots.Api.Endpoints;

/// <summary>Places, slot generation, demo data and statistics, for authenticated staff only.</summary>
internal static class AdminEndpoints
{
    public static IEndpointRouteBuilder MapAdmin(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/admin").WithTags("Admin").RequireAuthorization(AdminAuth.AdminPolicy)
            .Problems([.. ProblemCatalog.Shedding, ProblemCatalog.Unauthenticated, ProblemCatalog.Forbidden,
                ProblemCatalog.ValidationFailed, ProblemCatalog.BodyTooLarge, ProblemCatalog.UnsupportedMediaType]);
        group.MapPost("/places", CreatePlace).WithName("CreatePlace").Accepts<CreatePlaceRequest>("application/json")
            .WithSummary("Create a place")
            .WithDescription("A new place (active unless said otherwise) in an IANA time zone. Admin keys only.");
        group.MapPost("/slots/generate", Generate).WithName("GenerateSlots").Accepts<GenerateSlotsRequest>("application/json")
            .WithSummary("Generate slots")
            .WithDescription("Slots from a daily template for the given days (at most 366) at the given places, or every active place; "
                + "slots that exist are kept. dryRun counts without writing. Admin keys only.");
        group.MapPost("/demo-data", Demo).WithName("CreateDemoData").Accepts<DemoDataBody>("application/json")
            .WithSummary("Create demo data")
            .WithDescription("Believable places with slots, from a seed. Admin keys only.");
        // Viewers (e.g. a ministry dashboard) may read statistics but change nothing.
        string[] viewer = [.. ProblemCatalog.Shedding, ProblemCatalog.Unauthenticated];
        app.MapGet("/api/admin/stats", Stats).WithTags("Admin").WithName("GetStats").RequireAuthorization(AdminAuth.ViewerPolicy)
            .WithSummary("Seats and reservations per day")
            .WithDescription("Per day between from and to (default: today and the next 29 days, at most 366): slots, seats, free seats and reservations. Viewer or admin keys.")
            .Problems([.. viewer, ProblemCatalog.ValidationFailed]);
        app.MapGet("/api/admin/jobs", Jobs).WithTags("Admin").WithName("GetJobs").RequireAuthorization(AdminAuth.ViewerPolicy)
            .WithSummary("Scheduler jobs and flush lag")
            .WithDescription("Each job's last run and how far the disk tables lag behind the hot ones. Viewer or admin keys.")
            .Problems(viewer);
        return app;
    }

    public static async Task<Results<Created<PlaceDto>, ProblemHttpResult, ValidationProblem>> CreatePlace(
        HttpRequest request, PlaceCatalog catalog, CancellationToken ct)
    {
        var (body, unreadable, invalid) = await JsonBody.ReadAsync(request, SlotsJsonContext.Default.CreatePlaceRequest, ct);
        if (unreadable is not null)
        {
            return unreadable;
        }
        if (invalid is not null)
        {
            return invalid;
        }
        var v = new Validation();
        Required(v, "name", body!.Name, 200);
        Required(v, "address", body.Address, 300);
        Required(v, "region", body.Region, 100);
        if (string.IsNullOrWhiteSpace(body.TimeZone) || !TimeZoneInfo.TryFindSystemTimeZoneById(body.TimeZone, out _))
        {
            v.Add("timeZone", "An IANA time zone id is required, e.g. Europe/Bratislava.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var place = await catalog.CreateAsync(
            new NewPlace(body.Name!.Trim(), body.Address!.Trim(), body.Region!.Trim(), body.TimeZone!, body.Active ?? true), ct);
        return TypedResults.Created($"/api/places/{place.Id}", PlacesEndpoints.ToDto(place));
    }

    public static async Task<Results<Ok<GenerateSlotsDto>, ProblemHttpResult, ValidationProblem>> Generate(
        HttpRequest request, SlotGenerator generator, TimeProvider clock, CancellationToken ct)
    {
        var (body, unreadable, invalid) = await JsonBody.ReadAsync(request, SlotsJsonContext.Default.GenerateSlotsRequest, ct);
        if (unreadable is not null)
        {
            return unreadable;
        }
        if (invalid is not null)
        {
            return invalid;
        }
        var v = new Validation();
        var yesterday = DateOnly.FromDateTime(clock.GetUtcNow().UtcDateTime).AddDays(-1);
        if (!Formats.TryDay(body!.From, out var from))
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
        else if (v.IsValid && (to < from || to.DayNumber - from.DayNumber >= 366))
        {
            v.Add("to", "'to' must be on or after 'from', at most 366 days later.");
        }
        var template = Template(body.Template, v);
        if (body.Capacity is null or < 1 or > 10_000)
        {
            v.Add("capacity", "Seats per slot: 1 to 10000.");
        }
        if (body.PlaceIds is { Length: > 1000 } || body.PlaceIds?.Any(id => id < 1) == true)
        {
            v.Add("placeIds", "At most 1000 positive place ids; leave empty for every active place.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var result = await generator.GenerateAsync(
            new GenerateSlots(body.PlaceIds ?? [], from, to, template!, body.Capacity!.Value, body.DryRun ?? false), ct);
        return TypedResults.Ok(new GenerateSlotsDto(result.Places, result.SlotsCreated, result.SlotsExisting, result.SeatsCreated, body.DryRun ?? false));
    }

    public static async Task<Results<Ok<DemoDataDto>, ProblemHttpResult, ValidationProblem>> Demo(
        HttpRequest request, DemoData demo, CancellationToken ct)
    {
        var (body, unreadable, invalid) = await JsonBody.ReadAsync(request, SlotsJsonContext.Default.DemoDataBody, ct);
        if (unreadable is not null)
        {
            return unreadable;
        }
        if (invalid is not null)
        {
            return invalid;
        }
        var v = new Validation();
        if (body!.Places is < 1 or > 500)
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
        return TypedResults.Ok(new DemoDataDto(result.PlacesCreated, result.Slots.SlotsCreated, result.Slots.SeatsCreated));
    }

    public static async Task<Results<Ok<StatsDto>, ValidationProblem>> Stats(
        string? from, string? to, ICatalogStore catalogue, TimeProvider clock, CancellationToken ct)
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
        if (v.IsValid && (last < first || last.DayNumber - first.DayNumber >= 366))
        {
            v.Add("to", "'to' must be on or after 'from', at most 366 days later.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var days = await catalogue.DayTotalsAsync(first, last, ct);
        return TypedResults.Ok(new StatsDto(Formats.Day(first), Formats.Day(last),
            days.Select(d => new DayStatsDto(Formats.Day(d.Day), d.Slots, d.Seats, d.FreeSeats, d.Reservations)).ToList()));
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

    private static SlotTemplate? Template(TemplateRequest? t, Validation v)
    {
        if (t is null)
        {
            v.Add("template", "The template is required: firstStart, lastStart, intervalMinutes, lengthMinutes.");
            return null;
        }
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

    private static void Required(Validation v, string field, string? value, int max)
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
