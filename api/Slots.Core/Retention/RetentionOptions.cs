namespace Slots.Retention;

/// <summary>Slots:Retention: how long a booking's personal data outlives its appointment.</summary>
public sealed class RetentionOptions
{
    public const string Section = "Slots:Retention";

    /// <summary>
    /// Days after the appointment (or after the last day a waiting-list entry asked for) when the
    /// name, phone and person hash are erased. Counts stay for the statistics.
    /// </summary>
    public int Days { get; set; } = 30;

    /// <summary>How often the erasure job looks for what has come due.</summary>
    public TimeSpan Every { get; set; } = TimeSpan.FromHours(1);
}
