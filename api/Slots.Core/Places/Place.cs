namespace Slots.Places;

/// <summary>A site where people come for their appointment. Lives on the cold side (EF Core).</summary>
public sealed class Place
{
    public int Id { get; set; }
    public required string Name { get; set; }
    public required string Address { get; set; }
    public required string Region { get; set; }

    /// <summary>IANA time zone id; a place's days and "today" are in this zone.</summary>
    public required string TimeZone { get; set; }

    public bool Active { get; set; } = true;

    /// <summary>Opening hours as the place states them ("Po-Pi 8:00-16:00"), shown on its page; null when not given.</summary>
    public string? OpeningHours { get; set; }

    /// <summary>When an admin closed the place to new bookings (Unix seconds); null while it is open.</summary>
    public long? ClosedAt { get; set; }

    /// <summary>The window horizon: days before this one are in the hot tables.</summary>
    public DateOnly HotUntil { get; set; }
}
