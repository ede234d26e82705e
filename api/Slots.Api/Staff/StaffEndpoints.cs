using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Catalogue;
using Slots.Places;
using Slots.Reservations;
using Slots.Staff;
using Slots.Window;

namespace Slots.Api.Staff;

/// <summary>The site's day for signed-in staff: who they are, the roster and its export, check-in at the door, the audit trail.</summary>
internal static class StaffEndpoints
{
    public const int MaxPageSize = 500;

    public static IEndpointRouteBuilder MapStaff(this IEndpointRouteBuilder app)
    {
        var group = app.MapGroup("/api/staff").WithTags("Staff").RequireAuthorization(StaffAuth.Policy).PersonalData()
            .Problems([.. ProblemTypes.Shedding, ProblemTypes.Unauthenticated, ProblemTypes.Forbidden]);
        group.MapGet("/me", Me).WithName("GetStaffMe").RequireRateLimiting(RateLimits.Reads)
            .WithSummary("Who is signed in")
            .WithDescription("The token's subject, its highest staff role and its places (empty for admin: every place).");
        var place = group.MapGroup("/places/{placeId}");
        place.MapWalkIns();
        place.MapGet("/roster", Roster).WithName("GetRoster").RequireRateLimiting(RateLimits.Reads)
            .AtPlace(StaffRoles.SiteStaff)
            .WithSummary("The day's roster")
            .WithDescription("Every booking of the place's day (default today there), booked, checked in, no-show or cancelled, "
                + "by start time and seat, with the day's counts by state. Filter by start time (from, to), state and code; a page at a time. "
                + "Phones are masked; national ids are never shown.")
            .QueryDay("day", "The day; today at the place when left out.")
            .QueryTime("from", "The earliest start.")
            .QueryTime("to", "The latest start.")
            .QueryOneOf("state", "Only bookings in this state.", "booked", "checked-in", "no-show", "cancelled", "cancelled-by-site")
            .QueryText("code", 32, "One booking code.")
            .QueryText("service", 32, "Only bookings of this service, by its code (GET /api/services).")
            .QueryInteger("page", 1, 10_000, 1, "The page, from 1.")
            .QueryInteger("pageSize", 1, MaxPageSize, 100, "Rows per page.")
            .Problems(ProblemTypes.UnknownPlace, ProblemTypes.UnknownService);
        place.MapGet("/roster.csv", Export).WithName("ExportRoster").RequireRateLimiting(RateLimits.Reads)
            .AtPlace(StaffRoles.SiteManager)
            .WithSummary("The day's roster as CSV")
            .WithDescription("RFC 4180, UTF-8 with a byte-order mark (spreadsheet programs then show Slovak letters right), the same rows "
                + "and filters as the roster without paging. Site managers and admins; each export is recorded in the audit trail.")
            .QueryDay("day", "The day; today at the place when left out.")
            .QueryText("service", 32, "Only bookings of this service, by its code (GET /api/services).")
            .Produces<string>(StatusCodes.Status200OK, "text/csv")
            .Problems(ProblemTypes.UnknownPlace, ProblemTypes.UnknownService);
        place.MapPost("/check-ins", CheckIn).WithName("CheckIn").RequireRateLimiting(RateLimits.Writes)
            .AtPlace(StaffRoles.SiteStaff)
            .WithJsonBody<CheckInRequest>()
            .WithSummary("Check a person in at the door")
            .WithDescription("By the booking code, typed or scanned; with the national id the person shows, only when it is the booking's. "
                + "Today at this place, from Slots:Staff:CheckIn:Earliest before the start to Latest after it. A second check-in changes "
                + "nothing and answers the first (alreadyCheckedIn, with its time and who did it). Against the citizen's own cancel, exactly one wins.")
            .Problems(ProblemTypes.ReservationNotFound, ProblemTypes.CheckInCancelled, ProblemTypes.CheckInOtherPlace,
                ProblemTypes.CheckInOtherDay, ProblemTypes.CheckInTooEarly, ProblemTypes.CheckInTooLate, ProblemTypes.CheckInNotThePerson);
        place.MapBlockCancels();
        place.MapGet("/audit", Audit).WithName("GetAudit").RequireRateLimiting(RateLimits.Reads)
            .AtPlace(StaffRoles.SiteManager)
            .WithSummary("What staff did at the place")
            .WithDescription("The audit trail, newest first: check-ins, exports, block cancels, slot generation and place changes, with who, when and why.")
            .QueryDay("from", "The first day (UTC); 7 days ago when left out.")
            .QueryDay("to", "The last day (UTC); today when left out.");
        return app;
    }

    public static Ok<StaffMeDto> Me(HttpContext http)
    {
        var member = StaffMember.Of(http.User);
        return TypedResults.Ok(new StaffMeDto(member.Subject, member.Role!, [.. member.Places.Order()]));
    }

    public static async Task<Results<Ok<RosterDto>, ProblemHttpResult, ValidationProblem>> Roster(
        string placeId, string? day, string? from, string? to, string? state, string? code, string? page, string? pageSize, string? service,
        StaffService staff, PlaceDirectory places, ServiceDirectory services, TimeProvider clock, CancellationToken ct)
    {
        var v = new Validation();
        Reservations.ReservationRequests.ServiceCode(service, "service", v);
        var query = await RosterRequests.QueryAsync(placeId, day, from, to, state, code, page, pageSize, places, clock, v, ct);
        if (query is null)
        {
            return v.IsValid ? Problem.UnknownPlace() : v.ToProblem();
        }
        var catalogue = await services.AllAsync(ct);
        if (!Reservations.ReservationRequests.TryServiceFilter(service, catalogue, out var serviceId))
        {
            return Reservations.ReservationProblems.UnknownService();
        }
        if (await staff.RosterAsync(query with { ServiceId = serviceId }, ct) is not { } roster)
        {
            return Problem.UnknownPlace();
        }
        var c = roster.Counts;
        return TypedResults.Ok(new RosterDto(query.PlaceId, Formats.Day(query.Day), new RosterCountsDto(c.Booked, c.CheckedIn, c.NoShow, c.Cancelled),
            query.Page, query.PageSize, roster.Total, [.. roster.Rows.Select(r => RosterRequests.Row(r, catalogue))]));
    }

    public static async Task<Results<FileContentHttpResult, ProblemHttpResult, ValidationProblem>> Export(
        string placeId, string? day, string? service, HttpContext http, StaffService staff, PlaceDirectory places, ServiceDirectory services,
        TimeProvider clock, CancellationToken ct)
    {
        var v = new Validation();
        Reservations.ReservationRequests.ServiceCode(service, "service", v);
        var query = await RosterRequests.QueryAsync(placeId, day, null, null, null, null, null, null, places, clock, v, ct);
        if (query is null)
        {
            return v.IsValid ? Problem.UnknownPlace() : v.ToProblem();
        }
        var catalogue = await services.AllAsync(ct);
        if (!Reservations.ReservationRequests.TryServiceFilter(service, catalogue, out var serviceId))
        {
            return Reservations.ReservationProblems.UnknownService();
        }
        if (await staff.RosterAsync(query with { Page = 1, PageSize = int.MaxValue, ServiceId = serviceId }, ct) is not { } roster)
        {
            return Problem.UnknownPlace();
        }
        await staff.RecordAsync(StaffMember.Of(http.User).Subject, query.PlaceId, AuditActions.RosterExport, Formats.Day(query.Day), null, ct);
        return TypedResults.File(RosterRequests.Csv(roster.Rows.Select(r => RosterRequests.Row(r, catalogue))), "text/csv; charset=utf-8",
            $"roster-{query.PlaceId}-{Formats.Day(query.Day)}.csv");
    }

    public static async Task<Results<Ok<CheckInDto>, ProblemHttpResult, ValidationProblem>> CheckIn(
        string placeId, JsonBody<CheckInRequest> body, HttpContext http, StaffService staff, CancellationToken ct)
    {
        Formats.TryId(placeId, out int place); // the place filter has checked it
        var request = body.Value;
        var v = new Validation();
        var code = ConfirmationCode.Normalize(request.Code);
        if (string.IsNullOrWhiteSpace(request.Code))
        {
            v.Add("code", "The booking code is required.");
        }
        else if (request.Code.Length > 32)
        {
            v.Add("code", "A booking code has at most 32 characters.");
        }
        Slots.Persons.PersonHashes? hash = null;
        if (request.NationalId is not null && (hash = staff.HashOf(request.NationalId)) is null)
        {
            v.Add("nationalId", "Not a national id: 6 to 20 letters and digits (spaces, / and - are ignored).");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        if (code is null)
        {
            return Problem.ReservationNotFound();
        }
        var answer = await staff.CheckInAsync(place, code, hash, StaffMember.Of(http.User).Subject, ct);
        var time = answer.StartMinute is { } start ? Formats.Time(start) : null;
        IEnumerable<KeyValuePair<string, object?>>? at = time is null ? null : [new("time", time)];
        return answer.Status switch
        {
            CheckInStatus.CheckedIn or CheckInStatus.AlreadyCheckedIn => TypedResults.Ok(new CheckInDto(code, time!, answer.Name!,
                answer.Status == CheckInStatus.AlreadyCheckedIn, answer.At!.Value, answer.By!)),
            CheckInStatus.NotFound => Problem.ReservationNotFound(),
            CheckInStatus.Cancelled => Problem.Of(ProblemTypes.CheckInCancelled, "This booking was cancelled."),
            CheckInStatus.OtherPlace => Problem.Of(ProblemTypes.CheckInOtherPlace, "This booking is at another place."),
            CheckInStatus.OtherDay => Problem.Of(ProblemTypes.CheckInOtherDay, "This booking is for another day.", extensions: at),
            CheckInStatus.TooEarly => Problem.Of(ProblemTypes.CheckInTooEarly, "It is too early to check this booking in.", extensions: at),
            CheckInStatus.TooLate => Problem.Of(ProblemTypes.CheckInTooLate, "It is too late to check this booking in.", extensions: at),
            CheckInStatus.NotThePerson => Problem.Of(ProblemTypes.CheckInNotThePerson, "The national id is not the booking's person."),
            _ => throw new InvalidOperationException($"Unmapped check-in status {answer.Status}."),
        };
    }

    public static async Task<Results<Ok<AuditEntryDto[]>, ValidationProblem>> Audit(
        string placeId, string? from, string? to, StaffService staff, TimeProvider clock, CancellationToken ct)
    {
        Formats.TryId(placeId, out int place);
        var v = new Validation();
        var today = DateOnly.FromDateTime(clock.GetUtcNow().UtcDateTime);
        var first = today.AddDays(-7);
        var last = today;
        if (from is not null && !Formats.TryDay(from, out first))
        {
            v.Add("from", $"Use {Formats.DayFormat}.");
        }
        if (to is not null && !Formats.TryDay(to, out last))
        {
            v.Add("to", $"Use {Formats.DayFormat}.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var entries = await staff.AuditAsync(place, new DateTimeOffset(first.ToDateTime(TimeOnly.MinValue), TimeSpan.Zero),
            new DateTimeOffset(last.ToDateTime(TimeOnly.MaxValue), TimeSpan.Zero), 1000, ct);
        return TypedResults.Ok(entries.Select(e => new AuditEntryDto(e.Id, e.At, e.Actor, e.PlaceId, e.Action, e.Target, e.Reason)).ToArray());
    }
}
