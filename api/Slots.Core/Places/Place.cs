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

    /// <summary>The window horizon: days before this one are in the hot tables.</summary>
    public DateOnly HotUntil { get; set; }
}
