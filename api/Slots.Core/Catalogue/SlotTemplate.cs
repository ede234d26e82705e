namespace Slots.Catalogue;

/// <summary>The time slots of a day: from FirstStart, every Interval minutes, up to and including LastStart.</summary>
public sealed record SlotTemplate(TimeOnly FirstStart, TimeOnly LastStart, int IntervalMinutes, int LengthMinutes)
{
    public IEnumerable<int> StartMinutes()
    {
        var first = (FirstStart.Hour * 60) + FirstStart.Minute;
        var last = (LastStart.Hour * 60) + LastStart.Minute;
        for (var minute = first; minute <= last; minute += IntervalMinutes)
        {
            yield return minute;
        }
    }
}

/// <summary>
/// Slots of one service for places × days. A null template or capacity takes each place's stored
/// offer of the service (its template, its seats); a place that offers the service with neither
/// given nor stored gets none.
/// </summary>
public sealed record GenerateSlots(
    IReadOnlyList<int> PlaceIds, DateOnly From, DateOnly To, SlotTemplate? Template, int? Capacity, bool DryRun,
    int ServiceId = ServiceIds.Default);

public sealed record GenerateSlotsResult(int Places, int SlotsCreated, int SlotsExisting, long SeatsCreated, int SeatsInWindowSlots);
