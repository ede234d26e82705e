using Microsoft.Extensions.Options;
using Slots.Places;
using Slots.Window;

namespace Slots.Reminders;

/// <summary>
/// Which places' next day is due for its reminders now, and queuing them within the run's allowance.
/// A place is due from <see cref="ReminderOptions.LocalTime"/> on its own clock until its midnight,
/// so a place in another time zone is reminded at its own evening, and a run missed (a restart, a
/// scheduler failover) is made up by the next one.
/// </summary>
public sealed class DayBeforeReminders(IReminderStore store, PlaceDirectory places, IOptions<ReminderOptions> options, ReminderMetrics metrics)
{
    /// <summary>The day whose bookings the place reminds at <paramref name="now"/>, or null before its local time.</summary>
    public DateOnly? DueDay(PlaceInfo place, DateTimeOffset now)
    {
        var local = TimeZoneInfo.ConvertTime(now, place.TimeZone);
        return TimeOnly.FromDateTime(local.DateTime) >= options.Value.LocalTime
            ? LocalClock.Today(place, now).AddDays(1)
            : null;
    }

    /// <summary>Queues the due reminders of every active place, at most <paramref name="allowance"/> of them. Returns how many.</summary>
    public async Task<int> QueueDueAsync(DateTimeOffset now, int allowance, CancellationToken ct)
    {
        var queued = 0;
        foreach (var place in (await places.AllAsync(ct)).Where(p => p.Active).OrderBy(p => p.Id))
        {
            if (DueDay(place, now) is not { } day)
            {
                continue;
            }
            int taken;
            do
            {
                var batch = Math.Min(options.Value.Batch, allowance - queued);
                if (batch <= 0)
                {
                    return queued;
                }
                taken = await store.QueueAsync(place.Id, day, now, batch, ct);
                metrics.Queued(place.Id, taken);
                queued += taken;
            }
            while (taken > 0);
        }
        return queued;
    }
}
