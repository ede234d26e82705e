using System.Diagnostics;
using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Catalogue;
using Slots.Places;
using Slots.Reservations;
using Slots.Window;

namespace Slots.Api.Places;

/// <summary>Finding a place and its free seats.</summary>
internal static class PlacesEndpoints
{
    private const int MaxDays = 31;

    // Deep enough for a million places at the largest page size; beyond it the row offset could overflow.
    private const int MaxPage = 10_000;

    public static IEndpointRouteBuilder MapPlaces(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/places").WithTags("Places").RequireRateLimiting(RateLimits.Reads)
            .Problems(ProblemTypes.Shedding);
        group.MapGet("/", List).WithName("ListPlaces")
            .WithSummary("List active places")
            .WithDescription("Active places, optionally in one region and/or with a name containing the search text, ordered by name, a page at a time.")
            .QueryInteger("page", 1, MaxPage, 1, "The page, from 1.")
            .QueryInteger("pageSize", 1, 100, 20, "Places per page.")
            .QueryText("region", 100, "Only places in this region (as GET /api/places/regions names them).")
            .QueryText("name", 100, "Only places whose name contains this text.")
            .Problems(ProblemTypes.ValidationFailed);
        group.MapGet("/regions", Regions).WithName("ListRegions")
            .WithSummary("List regions")
            .WithDescription("The regions that have an active place, for the region filter.");
        group.MapGet("/{id}", Get).WithName("GetPlace")
            .WithSummary("Get a place")
            .WithDescription("The place, with the services it offers.")
            .PathId("The place's id.")
            .Problems(ProblemTypes.UnknownPlace, ProblemTypes.ValidationFailed);
        group.MapGet("/{id}/availability", Availability).WithName("GetAvailability")
            .PathId("The place's id.")
            .WithSummary("Free seats of a place")
            .WithDescription("Each slot that has not started between from and to (default: today and the next 6 days, at most 31 days) "
                + "with its length, capacity and free seats. Days are in the place's own time zone. The answer carries an ETag and "
                + "Cache-Control: public, max-age=1 (the seats are the same for everyone, and each instance's view is refreshed about "
                + "every second): send the ETag back in If-None-Match to get 304 and no body while nothing changed. Booking stays the "
                + "authority: a seat gone meanwhile is answered slot-full with fresh alternatives.")
            .QueryDay("from", "The first day; today at the place when left out.")
            .QueryDay("to", "The last day; 6 days after from when left out, at most 30 days after it.")
            .QueryText("service", 32, "The service's code (GET /api/places/{id} lists the place's); left out at a place with one service, that one.")
            .Produces<AvailabilityDto>(StatusCodes.Status200OK, "application/json")
            .Produces(StatusCodes.Status304NotModified)
            .ResponseHeader(StatusCodes.Status200OK, "ETag", "The answer's entity tag: send it in If-None-Match to get 304 while nothing changed.")
            .ResponseHeader(StatusCodes.Status200OK, "Cache-Control", "public, max-age=1")
            .ResponseHeader(StatusCodes.Status304NotModified, "ETag", "The entity tag the client holds, still current.")
            .Header("If-None-Match", false, "The ETag of an availability answer the client holds.")
            .Problems(ProblemTypes.UnknownPlace, ProblemTypes.UnknownService, ProblemTypes.ValidationFailed);
        app.MapServices();
        return app;
    }

    public static async Task<Results<Ok<PageDto<PlaceDto>>, ValidationProblem>> List(
        PlaceCatalog catalog, string? region, string? name, string? page, string? pageSize, CancellationToken ct)
    {
        var v = new Validation();
        var pageNo = 1;
        if (page is not null && (!Formats.TryWhole(page, out pageNo) || pageNo is < 1 or > MaxPage))
        {
            v.Add("page", $"The page is a whole number from 1 to {MaxPage}.");
        }
        var size = 20;
        if (pageSize is not null && (!Formats.TryWhole(pageSize, out size) || size is < 1 or > 100))
        {
            v.Add("pageSize", "The page size is a whole number from 1 to 100.");
        }
        if (name is { Length: > 100 })
        {
            v.Add("name", "Search by at most 100 characters.");
        }
        if (region is { Length: > 100 })
        {
            v.Add("region", "A region has at most 100 characters.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var query = new PlaceQuery(region, name, pageNo, size);
        var result = await catalog.ListAsync(query, ct);
        return TypedResults.Ok(new PageDto<PlaceDto>(result.Items.Select(ToDto).ToList(), query.Page, query.PageSize, result.Total));
    }

    public static async Task<Ok<string[]>> Regions(PlaceCatalog catalog, CancellationToken ct) =>
        TypedResults.Ok((await catalog.RegionsAsync(ct)).ToArray());

    public static async Task<Results<Ok<PlaceDto>, ProblemHttpResult, ValidationProblem>> Get(
        string id, PlaceCatalog catalog, ServiceDirectory services, CancellationToken ct)
    {
        if (!Formats.TryId(id, out int placeId))
        {
            return InvalidId();
        }
        if (await catalog.FindAsync(placeId, ct) is not { Active: true } place)
        {
            return Problem.UnknownPlace();
        }
        var offered = await services.OfferedAtAsync(place.Id, ct);
        return TypedResults.Ok(ToDto(place) with { Services = offered.Select(ServicesEndpoints.ToDto).ToList() });
    }

    public static async Task<Results<TaggedJson, ProblemHttpResult, ValidationProblem>> Availability(
        string id, string? from, string? to, string? service, PlaceDirectory places, ReservationService reservations, AvailabilityAnswers answers,
        TimeProvider clock, ApiMetrics metrics, CancellationToken ct)
    {
        var started = Stopwatch.GetTimestamp();
        if (!Formats.TryId(id, out int placeId))
        {
            return InvalidId();
        }
        // What is malformed is said whatever the place; the defaults need its today.
        var v = new Validation();
        var fromDay = Formats.DayOrNull(from, "from", v);
        var toDay = Formats.DayOrNull(to, "to", v);
        Reservations.ReservationRequests.ServiceCode(service, "service", v);
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var place = await places.FindAsync(placeId, ct);
        if (place is not { Active: true })
        {
            return Problem.UnknownPlace();
        }
        var today = LocalClock.Today(place, clock.GetUtcNow());
        var first = fromDay ?? today;
        var last = toDay ?? first.AddDays(6);
        if (last < first)
        {
            v.Add("to", "'to' must not be before 'from'.");
        }
        if (v.IsValid && last.DayNumber - first.DayNumber + 1 > MaxDays)
        {
            v.Add("to", $"Ask for at most {MaxDays} days at once.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var choice = await reservations.ChooseServiceAsync(placeId, service, ct);
        if (choice.Refusal is { } refused)
        {
            return refused == ReservationStatus.ServiceRequired
                ? Reservations.ReservationProblems.ServiceRequired(choice.Codes)
                : Reservations.ReservationProblems.UnknownService();
        }
        var chosen = choice.Service!;
        var now = clock.GetUtcNow().ToUnixTimeSeconds();
        // Taken before the read: if it is the same after, the answer shows exactly that state.
        var stamp = reservations.AvailabilityStamp(place, last);
        if (stamp is { } seen && answers.Find(placeId, chosen.Id, first, last, seen, now) is { } kept)
        {
            metrics.AvailabilityAnswered(kept: true, Stopwatch.GetElapsedTime(started));
            return kept;
        }
        var slots = await reservations.AvailabilityAsync(place, chosen.Id, first < today ? today : first, last, ct);
        var days = Days(slots, now, out var firstStart);
        // The service is in the body, so each service's answer has its own ETag.
        var answer = TaggedJson.Of(new AvailabilityDto(placeId, place.TimeZone.Id, Formats.Day(first), Formats.Day(last), days, chosen.Code),
            SlotsJsonContext.Default.AvailabilityDto, maxAgeSeconds: 1);
        if (stamp is { } before && reservations.AvailabilityStamp(place, last) == before)
        {
            answers.Keep(placeId, chosen.Id, first, last, before, firstStart, answer);
        }
        metrics.AvailabilityAnswered(kept: false, Stopwatch.GetElapsedTime(started));
        return answer;
    }

    /// <summary>
    /// The slots that have not started by <paramref name="now"/> (a started slot cannot be booked any more), day by day;
    /// <paramref name="firstStart"/> is the earliest one's start (long.MaxValue when none). One pass over slots in day
    /// order, each day's list sized to its slots: a stampede builds hundreds of these answers a second, and grouping
    /// them with LINQ was a quarter of an instance's allocations.
    /// </summary>
    internal static List<DayDto> Days(IReadOnlyList<SlotAvailability> slots, long now, out long firstStart)
    {
        if (!InDayOrder(slots))
        {
            slots = [.. slots.OrderBy(s => s.Slot.Day)];   // stable: each day's slots keep their order
        }
        var days = new List<DayDto>();
        firstStart = long.MaxValue;
        for (var i = 0; i < slots.Count;)
        {
            var day = slots[i].Slot.Day;
            var end = i;
            while (end < slots.Count && slots[end].Slot.Day == day)
            {
                end++;
            }
            List<SlotDto>? open = null;
            for (; i < end; i++)
            {
                var s = slots[i];
                if (s.StartsAtUnix > now)
                {
                    (open ??= new List<SlotDto>(end - i)).Add(new SlotDto(Formats.Time(s.Slot.StartMinute), s.Minutes, s.Capacity, s.Free));
                    firstStart = Math.Min(firstStart, s.StartsAtUnix);
                }
            }
            if (open is not null)
            {
                days.Add(new DayDto(Formats.Day(day), open));
            }
        }
        return days;
    }

    private static bool InDayOrder(IReadOnlyList<SlotAvailability> slots)
    {
        for (var i = 1; i < slots.Count; i++)
        {
            if (slots[i].Slot.Day < slots[i - 1].Slot.Day)
            {
                return false;
            }
        }
        return true;
    }

    private static ValidationProblem InvalidId() => Problem.Invalid("id", Formats.PlaceIdExpected);

    internal static PlaceDto ToDto(Place p) => new(p.Id, p.Name, p.Address, p.Region, p.TimeZone, p.Active, p.OpeningHours, p.ClosedAt is not null);
}
