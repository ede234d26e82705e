namespace Slots.Reminders;

/// <summary>Slots:Reminders: the SMS the day before a booking, with a link to cancel or move it.</summary>
public sealed class ReminderOptions
{
    public const string Section = "Slots:Reminders";

    public bool Enabled { get; set; } = true;

    /// <summary>From this local time at each place (its own time zone) the next day's bookings are reminded.</summary>
    public TimeOnly LocalTime { get; set; } = new(17, 0);

    /// <summary>
    /// Reminders queued per second at most, on average: a share of the gateway's rate
    /// (Slots:Sms:MessagesPerSecond), so a day of 100,000 bookings never stands in front of the
    /// confirmations and cancellations in the outbox and the queue.
    /// </summary>
    public int PerSecond { get; set; } = 20;

    /// <summary>Reminders queued (with their SMS) per transaction.</summary>
    public int Batch { get; set; } = 500;

    /// <summary>
    /// How long a place whose next day has nothing left to remind is passed over before it is asked
    /// again, for bookings made since: the most such a late booking waits for its reminder. Zero
    /// asks every place on every run.
    /// </summary>
    public TimeSpan RecheckAfter { get; set; } = TimeSpan.FromMinutes(5);
}
