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

/// <summary>Who may book a service (table service_eligibility): 0 everyone, 1 by age, 2 invitation holders only. No row: everyone.</summary>
public sealed class ServiceEligibilityRecord
{
    public int ServiceId { get; set; }
    public short Rule { get; set; }
    public bool AcceptsInvitations { get; set; }
}

/// <summary>One dated opening of a service by age (table service_age_steps): from OpensAt (Unix seconds) on, people born on or before the date.</summary>
public sealed class ServiceAgeStepRecord
{
    public int ServiceId { get; set; }
    public long OpensAt { get; set; }
    public DateOnly BornOnOrBefore { get; set; }
}

/// <summary>A batch of invitation codes for a service (table invitation_batches); its codes are downloaded once, when it is made.</summary>
public sealed class InvitationBatchRecord
{
    public int Id { get; set; }
    public int ServiceId { get; set; }
    public string Label { get; set; } = "";
    public int Size { get; set; }
    public long CreatedAt { get; set; }
    public string CreatedBy { get; set; } = "";
    public long? RevokedAt { get; set; }
    public string? RevokedBy { get; set; }
}

/// <summary>
/// One invitation code, kept only as its keyed hash (table invitation_codes). Spent: bound to the
/// person whose booking it made eligible (SpentCode is that booking); PersonHash blanked by erasure.
/// </summary>
public sealed class InvitationCodeRecord
{
    public string Hash { get; set; } = "";
    public int BatchId { get; set; }
    public int ServiceId { get; set; }
    public bool Revoked { get; set; }
    public string? PersonHash { get; set; }
    public string? SpentCode { get; set; }
    public long? SpentAt { get; set; }
}

/// <summary>
/// A two-dose booking's link (table dose_pairs): the first dose's code, the person's own, and the
/// second dose's code; written in the transaction that seats both.
/// </summary>
public sealed class DosePairRecord
{
    public string FirstCode { get; set; } = "";
    public string SecondCode { get; set; } = "";
    public int ServiceId { get; set; }
    public long CreatedAt { get; set; }
}
