using Slots.Catalogue;
using Slots.Reservations;
using Slots.Staff;

namespace Slots.Places;

/// <summary>
/// An admin sets the seats of a place's published slots of one service (issue 41, places that
/// change): added seats are bookable at once, or kept for the waiting list's line where it wants the
/// day; a cut takes free seats only and is refused whole, naming the bookings, where a slot holds
/// more than the new count. The catalogue and the hot seats change in one transaction, so the next
/// booking sees it; this instance's availability forgets its copy at once.
/// </summary>
public sealed class PlaceCapacity(ICatalogStore catalogue, IStaffStore staff, AvailabilitySnapshot availability, TimeProvider clock)
{
    public async Task<CapacityChanged> SetAsync(CapacityChange change, string serviceCode, string actor, CancellationToken ct)
    {
        var now = DateTimeOffset.FromUnixTimeSeconds(clock.GetUtcNow().ToUnixTimeSeconds());
        var changed = await catalogue.SetCapacityAsync(change, now.ToUnixTimeSeconds(), ct);
        if (changed.Refused)
        {
            return changed;
        }
        availability.Forget();
        var at = change.StartMinute is { } minute ? $" {TimeOfDay(minute)}" : "";
        await staff.AppendAuditAsync(new AuditEntry(0, now, actor, change.PlaceId, AuditActions.CapacityChanged,
            $"{serviceCode} {change.From:yyyy-MM-dd}..{change.To:yyyy-MM-dd}{at} seats {change.Seats}",
            $"slots {changed.Slots}, added {changed.SeatsAdded} ({changed.HeldForWaitingList} kept for the waiting list), removed {changed.SeatsRemoved}"), ct);
        return changed;
    }

    private static string TimeOfDay(int minute) => $"{minute / 60:00}:{minute % 60:00}";
}
