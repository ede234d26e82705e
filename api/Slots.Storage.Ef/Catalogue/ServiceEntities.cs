namespace Slots.Storage.Ef;

/// <summary>One service of the campaign's catalogue (table services); the dose bounds are both set for a two-dose service, or both null.</summary>
public sealed class ServiceRecord
{
    public int Id { get; set; }
    public required string Code { get; set; }
    public required string NameSk { get; set; }
    public required string NameEn { get; set; }
    public int? DoseMinDays { get; set; }
    public int? DoseMaxDays { get; set; }
    public bool Active { get; set; } = true;
}

/// <summary>
/// A service as one place offers it (table place_services): seats per slot and the slot template in
/// minutes after local midnight, null until set (the four template columns together).
/// </summary>
public sealed class PlaceServiceRecord
{
    public int PlaceId { get; set; }
    public int ServiceId { get; set; }
    public int? Seats { get; set; }
    public int? FirstMinute { get; set; }
    public int? LastMinute { get; set; }
    public int? IntervalMinutes { get; set; }
    public int? LengthMinutes { get; set; }
    public bool Active { get; set; } = true;
}
