using System.Diagnostics.Metrics;

namespace Slots.Reminders;

/// <summary>Meter Slots.Reminders: reminders queued, by place. Counts only, no personal data.</summary>
public sealed class ReminderMetrics
{
    public const string MeterName = "Slots.Reminders";

    private readonly Counter<long> _queued;

    public ReminderMetrics(IMeterFactory meters)
    {
        _queued = meters.Create(MeterName).CreateCounter<long>("slots.reminders.queued", "{reminder}", "Day-before reminders queued with their SMS, by place");
    }

    public void Queued(int placeId, int count)
    {
        if (count > 0)
        {
            _queued.Add(count, new KeyValuePair<string, object?>("place", placeId));
        }
    }
}
