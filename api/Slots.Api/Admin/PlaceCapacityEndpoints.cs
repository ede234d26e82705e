using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Reservations;
using Slots.Api.Staff;
using Slots.Catalogue;
using Slots.Places;
using Slots.Reservations;
using Slots.Window;

namespace Slots.Api.Admin;

/// <summary>An admin adds or cuts seats of a place's published slots (<see cref="PlaceCapacity"/>).</summary>
internal static class PlaceCapacityEndpoints
{
    public static async Task<Results<Ok<CapacityDto>, ProblemHttpResult, ValidationProblem>> Set(
        string id, JsonBody<SetCapacityRequest> request, HttpContext http, PlaceDirectory places, ServiceDirectory services,
        PlaceCapacity capacity, TimeProvider clock, CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        if (!Formats.TryId(id, out int placeId))
        {
            v.Add("id", Formats.PlaceIdExpected);
        }
        ReservationRequests.ServiceCode(body.Service, "service", v);
        if (!Formats.TryDay(body.From, out var from))
        {
            v.Add("from", $"The first day is required, as {Formats.DayFormat}.");
        }
        if (!Formats.TryDay(body.To, out var to))
        {
            v.Add("to", $"The last day is required, as {Formats.DayFormat}.");
        }
        else if (v.IsValid)
        {
            AdminEndpoints.DaySpan(v, from, to);
        }
        int? minute = null;
        if (body.Time is not null)
        {
            if (Formats.TryTime(body.Time, out var time))
            {
                minute = (time.Hour * 60) + time.Minute;
            }
            else
            {
                v.Add("time", "A slot's start as HH:mm, or left out for every slot of the days.");
            }
        }
        if (body.Seats is not (>= 1 and <= 10_000))
        {
            v.Add("seats", "Seats per slot: 1 to 10000.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        if (await places.FindAsync(placeId, ct) is not { } place)
        {
            return Problem.UnknownPlace();
        }
        if (from < LocalClock.Today(place, clock.GetUtcNow()).AddDays(-1))
        {
            return Problem.Invalid("from", "A day that has passed: slots that started keep their seats.");
        }
        // Read fresh: an offer made a moment ago on another instance counts.
        services.Invalidate();
        var choice = ServiceChoice.Of(await services.OfferedAtAsync(place.Id, ct), body.Service);
        if (choice.Refusal is { } refused)
        {
            return refused == ReservationStatus.ServiceRequired ? ReservationProblems.ServiceRequired(choice.Codes) : ReservationProblems.UnknownService();
        }
        var service = choice.Service!;
        var changed = await capacity.SetAsync(new CapacityChange(place.Id, service.Id, from, to, minute, body.Seats!.Value), service.Code,
            StaffMember.Of(http.User).Subject, ct);
        if (changed.Blocked is { } blocked)
        {
            return Problem.Of(ProblemTypes.CapacityBelowBooked,
                "Some slots have more bookings than that: nothing was changed. Cut less, or move or cancel the bookings named.",
                extensions: [new("bookings", blocked.Select(b => new BookingInTheWayDto(b.Code, Formats.Day(b.Day), Formats.Time(b.StartMinute))).ToList())]);
        }
        return TypedResults.Ok(new CapacityDto(place.Id, service.Code, changed.Slots, changed.SeatsAdded, changed.HeldForWaitingList, changed.SeatsRemoved));
    }
}
