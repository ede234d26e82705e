using System.Diagnostics.Metrics;

namespace Slots.Staff;

/// <summary>Meter Slots.Staff: check-ins at the door and no-shows, by place; bookings cancelled by sites. Counts only, no personal data.</summary>
public sealed class StaffMetrics
{
    public const string MeterName = "Slots.Staff";

    private readonly Counter<long> _checkIns;
    private readonly Counter<long> _noShows;
    private readonly Counter<long> _cancelledBySite;

    public StaffMetrics(IMeterFactory meters)
    {
        var meter = meters.Create(MeterName);
        _checkIns = meter.CreateCounter<long>("slots.staff.check_ins", "{booking}", "Bookings checked in at the door, by place");
        _noShows = meter.CreateCounter<long>("slots.staff.no_shows", "{booking}", "Bookings marked no-show after their slot ended and its grace passed, by place");
        _cancelledBySite = meter.CreateCounter<long>("slots.staff.cancelled_by_site", "{booking}", "Bookings cancelled by a site's block cancel, each with its SMS queued");
    }

    public void CheckedIn(int placeId) => _checkIns.Add(1, new KeyValuePair<string, object?>("place", placeId));

    public void CancelledBySite(int count)
    {
        if (count > 0)
        {
            _cancelledBySite.Add(count);
        }
    }

    public void NoShows(int placeId, int count) => _noShows.Add(count, new KeyValuePair<string, object?>("place", placeId));
}
