namespace Slots.Catalogue;

/// <summary>The slot catalogue on disk: every slot ever generated, in or out of the hot window.</summary>
public sealed class SlotRow
{
    public int PlaceId { get; set; }
    public DateOnly Day { get; set; }
    public int StartMinute { get; set; }
    public int Minutes { get; set; }
    public int Capacity { get; set; }

    /// <summary>The service the slot is for (services.id); the default service until slots name theirs.</summary>
    public int ServiceId { get; set; } = ServiceIds.Default;

    /// <summary>Start instant as Unix seconds, so every backend compares it the same way.</summary>
    public long StartsAt { get; set; }

    /// <summary>The site's block cancel that closed the slot to bookings (site_cancels.id), or null while it is open.</summary>
    public long? ClosedBy { get; set; }
}
