using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Api.Places;
using Slots.Api.Staff;
using Slots.Places;
using Slots.Staff;

namespace Slots.Api.Admin;

/// <summary>Places that change: an admin edits a place, closes it to new bookings (keeping or cancelling the bookings) and reopens it.</summary>
internal static class PlaceChangesEndpoints
{
    public static RouteGroupBuilder MapPlaceChanges(this RouteGroupBuilder admin)
    {
        admin.MapPut("/places/{id}", Edit).WithName("EditPlace").WithJsonBody<EditPlaceRequest>()
            .PathId("The place's id.")
            .WithSummary("Edit a place")
            .WithDescription("Sets the place's name, address, region and opening hours (its time zone stays). The place page shows the "
                + "change at once on this instance, on the others within 30 seconds. Admins only; recorded in the audit trail with the "
                + "fields that changed.")
            .Problems(ProblemTypes.UnknownPlace);
        admin.MapPost("/places/{id}/close", Close).WithName("ClosePlace").WithJsonBody<ClosePlaceRequest>()
            .PathId("The place's id.")
            .WithSummary("Close a place to new bookings")
            .WithDescription("Closes every day with slots from today on (in the place's time zone) at once: its availability offers no seat "
                + "and a booking gets place-closed. keepBookings true keeps the bookings; false cancels each one not yet started or "
                + "checked in, and each person gets one SMS with the reason. Runs a site's block cancel per day (see CancelBlock); "
                + "asked again, it finishes what a cut-off run left. Admins only; recorded in the audit trail.")
            .Problems(ProblemTypes.UnknownPlace);
        admin.MapPost("/places/{id}/reopen", Reopen).WithName("ReopenPlace")
            .PathId("The place's id.")
            .WithSummary("Reopen a closed place")
            .WithDescription("Opens the days the place's close closed: their free seats can be booked again at once. Bookings the close "
                + "cancelled stay cancelled; a site's own block cancels stay closed. Admins only; recorded in the audit trail.")
            .Problems(ProblemTypes.UnknownPlace, ProblemTypes.ValidationFailed);
        admin.MapPost("/places/{id}/capacity", PlaceCapacityEndpoints.Set).WithName("SetCapacity").WithJsonBody<SetCapacityRequest>()
            .PathId("The place's id.")
            .WithSummary("Add or cut seats of published slots")
            .WithDescription("Gives every slot of the service from 'from' to 'to' (or only those starting at 'time') that has not started "
                + "'seats' seats, in one transaction with the seats bookings take, so the next booking sees it. Added seats are bookable "
                + "at once; on a day someone on the place's waiting list wants, they are kept for the list, which is offered them first. "
                + "A cut removes free seats only: where a slot has more bookings than 'seats', nothing changes anywhere and the answer "
                + "names the bookings in the way. Admins only; recorded in the audit trail.")
            .Problems(ProblemTypes.UnknownPlace, ProblemTypes.UnknownService, ProblemTypes.ValidationFailed, ProblemTypes.CapacityBelowBooked);
        return admin;
    }

    public static async Task<Results<Ok<PlaceDto>, ProblemHttpResult, ValidationProblem>> Edit(
        string id, JsonBody<EditPlaceRequest> request, HttpContext http, PlaceCatalog catalog, StaffService staff, CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        if (!Formats.TryId(id, out int placeId))
        {
            v.Add("id", Formats.PlaceIdExpected);
        }
        AdminEndpoints.Required(v, "name", body.Name, 200);
        AdminEndpoints.Required(v, "address", body.Address, 300);
        AdminEndpoints.Required(v, "region", body.Region, 100);
        if (body.OpeningHours is not null)
        {
            // The length as sent, as the document states it and as the other fields are checked: trimming comes after.
            AdminEndpoints.Required(v, "openingHours", body.OpeningHours, PlaceChangeLimits.OpeningHours);
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        var edited = await catalog.EditAsync(placeId, new PlaceEdit(body.Name!.Trim(), body.Address!.Trim(), body.Region!.Trim(), body.OpeningHours?.Trim()), ct);
        if (edited is null)
        {
            return Problem.UnknownPlace();
        }
        if (edited.Changed() is { Count: > 0 } changed)
        {
            await staff.RecordAsync(StaffMember.Of(http.User).Subject, placeId, AuditActions.PlaceEdited, string.Join(',', changed), null, ct);
        }
        return TypedResults.Ok(PlacesEndpoints.ToDto(edited.After));
    }

    public static async Task<Results<Ok<ClosePlaceDto>, ProblemHttpResult, ValidationProblem>> Close(
        string id, JsonBody<ClosePlaceRequest> request, HttpContext http, PlaceClosing closing, CancellationToken ct)
    {
        var body = request.Value;
        var v = new Validation();
        if (!Formats.TryId(id, out int placeId))
        {
            v.Add("id", Formats.PlaceIdExpected);
        }
        var reason = body.Reason?.Trim();
        if (string.IsNullOrEmpty(reason))
        {
            v.Add("reason", "Say why: each person whose booking is cancelled gets it in their SMS.");
        }
        else if (reason.Length > BlockCancelOptions.MaxReason || reason.Any(char.IsControl))
        {
            v.Add("reason", $"One line of at most {BlockCancelOptions.MaxReason} characters.");
        }
        if (body.KeepBookings is null)
        {
            v.Add("keepBookings", "Say whether the bookings stay (true) or are cancelled with an SMS each (false).");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        // The run goes on when the caller hangs up: the days are closing and the people booked must be told.
        var closed = await closing.CloseAsync(placeId, body.KeepBookings!.Value, reason!, StaffMember.Of(http.User).Subject, CancellationToken.None);
        return closed is null
            ? Problem.UnknownPlace()
            : TypedResults.Ok(new ClosePlaceDto(placeId, closed.Days, closed.Cancelled, closed.Kept));
    }

    public static async Task<Results<Ok<ReopenPlaceDto>, ProblemHttpResult, ValidationProblem>> Reopen(
        string id, HttpContext http, PlaceClosing closing, CancellationToken ct)
    {
        if (!Formats.TryId(id, out int placeId))
        {
            return Problem.Invalid("id", Formats.PlaceIdExpected);
        }
        var days = await closing.ReopenAsync(placeId, StaffMember.Of(http.User).Subject, ct);
        return days is { } opened ? TypedResults.Ok(new ReopenPlaceDto(placeId, opened)) : Problem.UnknownPlace();
    }
}
