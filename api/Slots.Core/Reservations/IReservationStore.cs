namespace Slots.Reservations;

/// <summary>
/// The hot-path port every backend implements. Each write is ONE atomic unit in the database:
/// the seat, the person's registry entry, the idempotency record, the SMS outbox row and the
/// change record for the disk tables are written together or not at all.
/// </summary>
public interface IReservationStore
{
    /// <summary>
    /// Takes a free seat of the slot for the person. Answers the recorded result instead when the
    /// idempotency key was seen before with the same fingerprint; returns null when the key was
    /// used before for a different request.
    /// </summary>
    ValueTask<ReserveResult?> ReserveAsync(ReserveCommand command, CancellationToken ct);

    /// <summary>
    /// Whether <see cref="ReserveAsync"/> (and the cold path beside it) decides who may book the
    /// service in the seat's own database operation. A store that does not has the rule decided from
    /// the cached service just before it (SQL Server until its native procs read the rule).
    /// </summary>
    bool DecidesEligibility => true;

    ValueTask<CancelStatus> CancelAsync(CancelCommand command, CancellationToken ct);

    ValueTask<RescheduleStatus> RescheduleAsync(RescheduleCommand command, CancellationToken ct);

    Task<ReservationDetails?> FindAsync(string code, CancellationToken ct);

    /// <summary>Slots of a place in [from, to] with their free seats, in start order.</summary>
    Task<IReadOnlyList<SlotAvailability>> GetAvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct);

    /// <summary>
    /// The slots of every place in [from, to] with their free seats, in (place, day, time, service) order, streamed from one
    /// query; null from a store that cannot read them so (its readers then read place by place).
    /// </summary>
    IAsyncEnumerable<SlotAvailability>? EveryPlace(DateOnly from, DateOnly to) => null;

    /// <summary>
    /// What changed since <paramref name="known"/>, the digests of the place-days a reader holds: the slots of every place's
    /// day in [from, to] whose digest differs from the one given (or that was not given), with that day's digest, in (place,
    /// day, time, service) order; and, in that order too, a row without a slot for a given day that has no seats any more.
    /// The digests and the slots are read in one snapshot, so a day's digest describes the slots read with it. Null from a
    /// store that cannot (its readers read every place).
    /// </summary>
    IAsyncEnumerable<ChangedSlot>? ChangedDays(DateOnly from, DateOnly to, IReadOnlyList<DayDigest> known) => null;

    /// <summary>True when the database answers; used by the readiness probe.</summary>
    Task<bool> PingAsync(CancellationToken ct);
}
