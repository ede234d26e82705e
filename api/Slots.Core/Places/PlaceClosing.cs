using Slots.Catalogue;
using Slots.Reservations;
using Slots.Staff;
using Slots.Window;

namespace Slots.Places;

/// <summary>What closing a place did: the days closed, the bookings cancelled (each told by SMS) and those kept.</summary>
public sealed record PlaceClosed(int Days, int Cancelled, int Kept);

/// <summary>
/// An admin closes a place to new bookings and opens it again. A close is a site's block cancel of
/// each whole day with slots from today on (<see cref="BlockCancels"/>): the slots close and their
/// free hot seats go in the block's own transaction, so no booking lands from then on, on a hot day
/// or a disk day; the bookings are kept or cancelled with an SMS each. The place is marked closed
/// first, so slot generation adds no open slots meanwhile. A reopen opens those blocks again (a
/// site's own block cancels stand) and gives the slots their seats back.
/// </summary>
public sealed class PlaceClosing(
    ICatalogStore catalogue, IStaffStore staff, BlockCancels blocks, PlaceDirectory directory, AvailabilitySnapshot availability,
    TimeProvider clock)
{
    /// <summary>Closes the place; null when no place has that id. Closing a closed place again finishes what a cut-off run left.</summary>
    public async Task<PlaceClosed?> CloseAsync(int placeId, bool keepBookings, string reason, string actor, CancellationToken ct)
    {
        if (await directory.FindAsync(placeId, ct) is not { } place)
        {
            return null;
        }
        var now = DateTimeOffset.FromUnixTimeSeconds(clock.GetUtcNow().ToUnixTimeSeconds());
        await catalogue.SetPlaceClosedAsync(placeId, now.ToUnixTimeSeconds(), ct);
        directory.Invalidate();
        int cancelled = 0, kept = 0;
        var days = await catalogue.DaysWithSlotsAsync(placeId, LocalClock.Today(place, now), ct);
        foreach (var day in days)
        {
            var opened = await blocks.CancelAsync(
                new BlockCancelRequest(placeId, day, 0, 24 * 60, reason, actor, now, keepBookings, ClosesPlace: true), ct);
            cancelled += opened.Block.Cancelled;
            kept += opened.Block.Kept;
        }
        availability.Forget();
        await staff.AppendAuditAsync(new AuditEntry(0, now, actor, placeId, AuditActions.PlaceClosed,
            keepBookings ? "keep-bookings" : "cancel-bookings", reason), ct);
        return new PlaceClosed(days.Count, cancelled, kept);
    }

    /// <summary>Opens the place again; the number of days opened, or null when no place has that id.</summary>
    public async Task<int?> ReopenAsync(int placeId, string actor, CancellationToken ct)
    {
        if (await directory.FindAsync(placeId, ct) is not { } place)
        {
            return null;
        }
        var now = DateTimeOffset.FromUnixTimeSeconds(clock.GetUtcNow().ToUnixTimeSeconds());
        var reopened = 0;
        foreach (var block in await staff.StandingBlocksAsync(placeId, LocalClock.Today(place, now), closesPlace: true, ct))
        {
            if (await staff.ReopenBlockCancelAsync(block, actor, now, ct))
            {
                reopened++;
            }
        }
        await catalogue.SetPlaceClosedAsync(placeId, null, ct);
        directory.Invalidate();
        availability.Forget();
        await staff.AppendAuditAsync(new AuditEntry(0, now, actor, placeId, AuditActions.PlaceReopened, null, null), ct);
        return reopened;
    }
}
