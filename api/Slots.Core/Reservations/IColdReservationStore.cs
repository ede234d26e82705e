namespace Slots.Reservations;

/// <summary>How a cold-path call ended: done, or handed back because the day is hot (or the move crosses the horizon).</summary>
public enum ColdRoute
{
    Done,
    NowHot,
    AcrossWindow,
}

/// <summary>A cold-path answer; <see cref="Value"/> is meaningful when <see cref="Route"/> is Done.</summary>
public readonly record struct Cold<T>(ColdRoute Route, T Value);

/// <summary>
/// The cold-path port: reservations for days from a place's stored horizon on, on the disk tables,
/// with the hot path's outcomes and guarantees. A call that finds its day hot (the window moved
/// meanwhile) changes nothing and answers <see cref="ColdRoute.NowHot"/>, so the caller retries on
/// the hot store.
/// </summary>
public interface IColdReservationStore
{
    Task<Cold<ReserveResult?>> ReserveAsync(ReserveCommand c, CancellationToken ct);

    Task<Cold<CancelStatus>> CancelAsync(CancelCommand c, CancellationToken ct);

    /// <summary>Moves a cold reservation to another cold slot. A move to a hot day answers AcrossWindow.</summary>
    Task<Cold<RescheduleStatus>> RescheduleAsync(RescheduleCommand c, CancellationToken ct);

    /// <summary>
    /// Whether the code's reservation was cancelled and the proof is its owner's, on any day: a
    /// cancel retried after its first try took effect (its answer lost with a killed instance or a
    /// dropped connection, and resent by the client or its HTTP stack) is answered as the first was.
    /// </summary>
    Task<bool> WasCancelledAsync(CancelCommand c, CancellationToken ct);

    /// <summary>An active reservation on a cold day (not yet copied to the hot tables); null otherwise.</summary>
    Task<ReservationDetails?> FindAsync(string code, CancellationToken ct);

    /// <summary>The place's stored horizon and the slots of [from, to] on and after it, with their free seats.</summary>
    Task<(DateOnly Horizon, IReadOnlyList<SlotAvailability> Slots)> AvailabilityAsync(int placeId, DateOnly from, DateOnly to, CancellationToken ct);

    /// <summary>The stored horizon of a place (days before it are hot).</summary>
    Task<DateOnly> HorizonAsync(int placeId, CancellationToken ct);
}
