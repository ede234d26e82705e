using System.Globalization;
using Microsoft.AspNetCore.Http.HttpResults;
using Slots.Places;
using Slots.Reservations;
using Slots.Staff;
using Slots.Window;

namespace Slots.Api.Staff;

/// <summary>A site manager cancels a block of the place's slots, and everyone booked in it is told why.</summary>
internal static class BlockCancelEndpoints
{
    private const int EndOfDay = 24 * 60;

    public static RouteGroupBuilder MapBlockCancels(this RouteGroupBuilder place)
    {
        place.MapPost("/block-cancels", Cancel).WithName("CancelBlock").RequireRateLimiting(RateLimits.Writes)
            .AtPlace(StaffRoles.SiteManager)
            .WithJsonBody<CancelBlockRequest>()
            .WithSummary("Cancel a block of the place's slots")
            .WithDescription("Closes the slots of the day starting in [from, to) to new bookings at once, then cancels every booking in them "
                + "that is not checked in and has not started; each person gets one SMS in their language with the reason and a link to "
                + "book again at the place. Answers when all are done, with the counts. The same block asked for again answers it as it "
                + "stands (created false), finishing it first if its run was cut off; a run cut off by a crash is finished by the "
                + "scheduler. Site managers and admins; recorded in the audit trail.")
            .Problems(ProblemTypes.UnknownPlace);
        place.MapGet("/block-cancels", Standing).WithName("ListBlockCancels").RequireRateLimiting(RateLimits.Reads)
            .AtPlace(StaffRoles.SiteManager)
            .WithSummary("The place's blocks that stand")
            .WithDescription("The site's cancelled blocks of the place from today on that have not been opened again, by day and start; "
                + "the blocks of a place's close are not among them (they open with the place). Site managers and admins.")
            .Problems(ProblemTypes.UnknownPlace);
        place.MapPost("/block-cancels/{blockId}/reopen", Reopen).WithName("ReopenBlock").RequireRateLimiting(RateLimits.Writes)
            .AtPlace(StaffRoles.SiteManager)
            .WithSummary("Open a cancelled block again")
            .WithDescription("The block's slots take bookings again at once and the seats they lack come back free; a slot that another "
                + "standing block covers stays closed. The bookings it cancelled stay cancelled (their people were told). Site managers "
                + "and admins; recorded in the audit trail.")
            .Produces(StatusCodes.Status204NoContent)
            .Problems(ProblemTypes.ValidationFailed, ProblemTypes.UnknownPlace, ProblemTypes.BlockNotFound);
        return place;
    }

    public static async Task<Results<Ok<IReadOnlyList<BlockCancelDto>>, ProblemHttpResult>> Standing(
        string placeId, BlockCancels blocks, PlaceDirectory places, TimeProvider clock, CancellationToken ct)
    {
        Formats.TryId(placeId, out int id); // the place filter has checked it
        if (await places.FindAsync(id, ct) is not { } place)
        {
            return Problem.UnknownPlace();
        }
        var standing = await blocks.StandingAsync(id, LocalClock.Today(place, clock.GetUtcNow()), ct);
        return TypedResults.Ok<IReadOnlyList<BlockCancelDto>>([.. standing.Select(b => ToDto(b, created: false))]);
    }

    public static async Task<Results<NoContent, ProblemHttpResult, ValidationProblem>> Reopen(
        string placeId, string blockId, HttpContext http, BlockCancels blocks, PlaceDirectory places, TimeProvider clock, CancellationToken ct)
    {
        Formats.TryId(placeId, out int id); // the place filter has checked it
        if (!long.TryParse(blockId, NumberStyles.None, CultureInfo.InvariantCulture, out var block) || block < 1)
        {
            return Problem.Invalid("blockId", "A block's id: a whole number from 1, as the block's cancel answered it.");
        }
        if (await places.FindAsync(id, ct) is not { } place)
        {
            return Problem.UnknownPlace();
        }
        var today = LocalClock.Today(place, clock.GetUtcNow());
        // Opened whatever the caller does next: the slots take bookings at once.
        return await blocks.ReopenAsync(id, block, today, StaffMember.Of(http.User).Subject, CancellationToken.None)
            ? TypedResults.NoContent()
            : Problem.Of(ProblemTypes.BlockNotFound, "No standing block of this place has that id.");
    }

    public static async Task<Results<Ok<BlockCancelDto>, ProblemHttpResult, ValidationProblem>> Cancel(
        string placeId, JsonBody<CancelBlockRequest> body, HttpContext http, BlockCancels blocks, PlaceDirectory places, TimeProvider clock,
        CancellationToken ct)
    {
        Formats.TryId(placeId, out int id); // the place filter has checked it
        var request = body.Value;
        var v = new Validation();
        var day = default(DateOnly);
        if (request.Day is null)
        {
            v.Add("day", "The day is required.");
        }
        else if (!Formats.TryDay(request.Day, out day))
        {
            v.Add("day", $"Use {Formats.DayFormat}.");
        }
        var from = Minute(request.From, 0, "from", v);
        var to = Minute(request.To, EndOfDay, "to", v);
        if (v.IsValid && from >= to)
        {
            v.Add("to", "The block must end after it starts.");
        }
        var reason = request.Reason?.Trim();
        if (string.IsNullOrEmpty(reason))
        {
            v.Add("reason", "Say why: every person booked gets it in their SMS.");
        }
        else if (reason.Length > BlockCancelOptions.MaxReason || reason.Any(char.IsControl))
        {
            v.Add("reason", $"One line of at most {BlockCancelOptions.MaxReason} characters.");
        }
        if (!v.IsValid)
        {
            return v.ToProblem();
        }
        if (await places.FindAsync(id, ct) is not { } place)
        {
            return Problem.UnknownPlace();
        }
        var now = DateTimeOffset.FromUnixTimeSeconds(clock.GetUtcNow().ToUnixTimeSeconds());
        if (day < LocalClock.Today(place, now))
        {
            v.Add("day", "A day that has passed cannot be cancelled.");
            return v.ToProblem();
        }
        var actor = StaffMember.Of(http.User).Subject;
        // The run goes on when the caller hangs up: the block is closed already and its people must be told.
        var opened = await blocks.CancelAsync(new BlockCancelRequest(id, day, from, to, reason!, actor, now), CancellationToken.None);
        return TypedResults.Ok(ToDto(opened.Block, opened.Created));
    }

    private static BlockCancelDto ToDto(BlockCancel b, bool created) =>
        new(b.Id, b.PlaceId, Formats.Day(b.Day), Clock(b.FromMinute), Clock(b.ToMinute), b.Reason,
            b.Cancelled, b.Kept, b.Finished, created, b.CreatedAt, b.FinishedAt);

    private static int Minute(string? value, int otherwise, string field, Validation v)
    {
        if (value is null)
        {
            return otherwise;
        }
        if (Formats.TryTime(value, out var time))
        {
            return SlotKey.MinuteOf(time);
        }
        v.Add(field, "Use HH:mm.");
        return otherwise;
    }

    /// <summary>HH:mm of a minute of the day, 24:00 for its end.</summary>
    private static string Clock(int minute) =>
        string.Create(CultureInfo.InvariantCulture, $"{minute / 60:00}:{minute % 60:00}");
}
