namespace Slots.Reminders;

/// <summary>Queues day-before reminders, on every backend.</summary>
public interface IReminderStore
{
    /// <summary>
    /// Queues up to <paramref name="batch"/> reminders for the active bookings at the place on
    /// <paramref name="day"/> that start after <paramref name="now"/> and have none yet for their
    /// current time: each one's record and its SMS in one transaction. A booking is reminded once
    /// per time it holds (a reschedule to a new time is reminded again); a cancelled one is not
    /// there to remind. Returns how many it queued (fewer than the batch: the day is done).
    /// </summary>
    Task<int> QueueAsync(int placeId, DateOnly day, DateTimeOffset now, int batch, CancellationToken ct);

    /// <summary>Forgets the reminders of days before <paramref name="day"/>: their bookings are over.</summary>
    Task<int> ForgetBeforeAsync(DateOnly day, CancellationToken ct);
}
