using Slots.Catalogue;

namespace Slots.Storage.Ef;

/// <summary>One seat of a hot slot: free while it has no code and no hold.</summary>
public sealed class HotSeat
{
    public int PlaceId { get; set; }
    public DateOnly Day { get; set; }
    public int StartMinute { get; set; }
    public int SeatNo { get; set; }
    public int Minutes { get; set; }
    public long StartsAt { get; set; }

    /// <summary>The booking's code; NULL while no booking holds the seat.</summary>
    public string? Code { get; set; }

    /// <summary>1 while the waiting list holds the seat back from the crowd (kept for its line, or held for <see cref="OfferId"/>); else 0.</summary>
    public short Hold { get; set; }

    /// <summary>The waiting-list offer holding the seat, if one does.</summary>
    public long? OfferId { get; set; }

    /// <summary>The service (services.id); the default service until writers name theirs.</summary>
    public int ServiceId { get; set; } = ServiceIds.Default;
}

/// <summary>An active reservation inside the hot window.</summary>
public sealed class HotReservation
{
    public required string Code { get; set; }
    public int PlaceId { get; set; }
    public DateOnly Day { get; set; }
    public int StartMinute { get; set; }
    public int SeatNo { get; set; }
    public int Minutes { get; set; }
    public long StartsAt { get; set; }
    public required string PersonHash { get; set; }
    public required string Phone { get; set; }
    public required string Name { get; set; }
    public required string Language { get; set; }
    public long CreatedAt { get; set; }

    /// <summary>The service (services.id); the default service until writers name theirs.</summary>
    public int ServiceId { get; set; } = ServiceIds.Default;
}

/// <summary>The reservation history on disk, fed by the flush of hot changes.</summary>
public sealed class ReservationRecord
{
    public required string Code { get; set; }
    public int PlaceId { get; set; }
    public DateOnly Day { get; set; }
    public int StartMinute { get; set; }
    public int SeatNo { get; set; }
    public required string PersonHash { get; set; }
    public required string Phone { get; set; }
    public required string Name { get; set; }
    public required string Language { get; set; }
    public long CreatedAt { get; set; }
    public long? CancelledAt { get; set; }
    public long UpdatedAt { get; set; }

    /// <summary>The service (services.id); the default service until writers name theirs.</summary>
    public int ServiceId { get; set; } = ServiceIds.Default;
}

/// <summary>One row per person with an active future reservation: the "one per person" rule.</summary>
public sealed class ActivePerson
{
    public required string PersonHash { get; set; }
    public required string Code { get; set; }
    public long EndsAt { get; set; }

    /// <summary>The service (services.id); the default service until writers name theirs.</summary>
    public int ServiceId { get; set; } = ServiceIds.Default;
}

public sealed class IdempotencyRecord
{
    public required string Key { get; set; }
    public required string Fingerprint { get; set; }
    public int Outcome { get; set; }
    public string? Code { get; set; }
    public long CreatedAt { get; set; }
}

/// <summary>An SMS to send, written with the booking change it announces.</summary>
public sealed class OutboxMessage
{
    public long Id { get; set; }
    public int Kind { get; set; }
    public required string Code { get; set; }
    public required string Phone { get; set; }
    public required string Language { get; set; }
    public int PlaceId { get; set; }
    public DateOnly Day { get; set; }
    public int StartMinute { get; set; }
    public long CreatedAt { get; set; }
    public long? SentAt { get; set; }

    /// <summary>What the text needs beyond the booking: a site's reason for its cancel.</summary>
    public string? Note { get; set; }
}

/// <summary>A hot change waiting to be flushed to the disk tables.</summary>
/// Carries the whole reservation so a flush never needs the hot row, which a cancel deletes.
public sealed class ChangeRecord
{
    public long Id { get; set; }
    public int Kind { get; set; }
    public required string Code { get; set; }
    public int PlaceId { get; set; }
    public DateOnly Day { get; set; }
    public int StartMinute { get; set; }
    public int SeatNo { get; set; }
    public required string PersonHash { get; set; }
    public required string Phone { get; set; }
    public required string Name { get; set; }
    public required string Language { get; set; }
    public long CreatedAt { get; set; }
    public long At { get; set; }

    /// <summary>The service (services.id); the default service until writers name theirs.</summary>
    public int ServiceId { get; set; } = ServiceIds.Default;
}

/// <summary>The last run of one scheduler job (table job_runs).</summary>
public sealed class JobRunRecord
{
    public required string Job { get; set; }
    public long StartedAt { get; set; }
    public long DurationMs { get; set; }
    public long RowsMoved { get; set; }
    public bool Ok { get; set; }
    public required string Instance { get; set; }
}

/// <summary>A site's cancel of a block of its slots (see the site_cancels script).</summary>
public sealed class SiteCancelRecord
{
    public long Id { get; set; }
    public int PlaceId { get; set; }
    public DateOnly Day { get; set; }
    public int FromMinute { get; set; }
    public int ToMinute { get; set; }
    public required string Reason { get; set; }
    public required string Actor { get; set; }
    public long CreatedAt { get; set; }
    public long ProgressAt { get; set; }
    public long? FinishedAt { get; set; }
    public int Cancelled { get; set; }
    public int Kept { get; set; }
    public bool KeepBookings { get; set; }
    public bool ClosesPlace { get; set; }
    public long? ReopenedAt { get; set; }
    public string? ReopenedBy { get; set; }
}

/// <summary>The door's record of a booking: checked in (2), a no-show (3) or cancelled by the site (5), when and by whom.</summary>
public sealed class AttendanceRecord
{
    public required string Code { get; set; }
    public int PlaceId { get; set; }
    public DateOnly Day { get; set; }
    public int State { get; set; }
    public long At { get; set; }
    public required string By { get; set; }
}

/// <summary>One staff action in the append-only trail.</summary>
public sealed class StaffAuditRecord
{
    public long Id { get; set; }
    public long At { get; set; }
    public required string Actor { get; set; }
    public int? PlaceId { get; set; }
    public required string Action { get; set; }
    public string? Target { get; set; }
    public string? Reason { get; set; }
}

/// <summary>
/// A booking reminded of one start time (table reminders): the key (code, starts_at) is what makes it
/// reminded once per time it holds; batch is the run that recorded it; day finds past days to forget.
/// </summary>
public sealed class ReminderRecord
{
    public required string Code { get; set; }
    public long StartsAt { get; set; }
    public int PlaceId { get; set; }
    public DateOnly Day { get; set; }
    public long QueuedAt { get; set; }
    public long Batch { get; set; }
}

/// <summary>One wrong phone or national id sent with a booking code (the per-code guessing limit).</summary>
public sealed class WrongProofRecord
{
    public long Id { get; set; }
    public required string Code { get; set; }
    public long At { get; set; }
}

/// <summary>A machine key as stored (table machine_keys): its hash, never the key; times in Unix seconds.</summary>
public sealed class MachineKeyRecord
{
    public long Id { get; set; }
    public required string Name { get; set; }
    public required string Role { get; set; }
    public required string Hash { get; set; }
    public long CreatedAt { get; set; }
    public required string CreatedBy { get; set; }
    public long ExpiresAt { get; set; }
    public long? RevokedAt { get; set; }
    public string? RevokedBy { get; set; }
}

/// <summary>
/// One person on a place's waiting list (table waitlist): state 1 waiting, 2 offered a held seat,
/// 3 booked through the offer, 4 left, 5 let the hold expire. Token is the entry's secret.
/// </summary>
public sealed class WaitlistEntry
{
    public long Id { get; set; }
    public int PlaceId { get; set; }
    public DateOnly FromDay { get; set; }
    public DateOnly ToDay { get; set; }
    public required string PersonHash { get; set; }
    public required string Phone { get; set; }
    public required string Name { get; set; }
    public required string Language { get; set; }
    public required string Token { get; set; }
    public long JoinedAt { get; set; }
    public short State { get; set; }
    public long? DecidedAt { get; set; }

    /// <summary>The service (services.id); the default service until writers name theirs.</summary>
    public int ServiceId { get; set; } = ServiceIds.Default;
}

/// <summary>A seat held for one waiting-list entry (table waitlist_offers): state 1 open, 2 claimed, 3 expired, 4 withdrawn.</summary>
public sealed class WaitlistOfferRecord
{
    public long Id { get; set; }
    public long EntryId { get; set; }
    public int PlaceId { get; set; }
    public DateOnly Day { get; set; }
    public int StartMinute { get; set; }
    public int SeatNo { get; set; }
    public long OfferedAt { get; set; }
    public long ExpiresAt { get; set; }
    public short State { get; set; }
    public long? DecidedAt { get; set; }

    /// <summary>The booking a claim made.</summary>
    public string? Code { get; set; }

    /// <summary>The service (services.id); the default service until writers name theirs.</summary>
    public int ServiceId { get; set; } = ServiceIds.Default;
}
