namespace Slots.Staff;

/// <summary>What the door and the staff screens need from the database, on every backend.</summary>
public interface IStaffStore
{
    /// <summary>Every booking of the place's day, active and cancelled, from the hot tables and the disk tables alike.</summary>
    Task<IReadOnlyList<RosterRow>> DayAsync(int placeId, DateOnly day, CancellationToken ct);

    /// <summary>The booking with this code wherever it is, with its state, or null.</summary>
    Task<DoorBooking?> FindAsync(string code, CancellationToken ct);

    /// <summary>
    /// Checks the booking in, in one step with the check that it is still active: against the
    /// citizen's own cancel exactly one wins. A second check-in changes nothing and answers the first.
    /// A check-in that holds is written to the audit trail in the same step (the command's Action).
    /// </summary>
    Task<CheckInAnswer> CheckInAsync(CheckInCommand command, CancellationToken ct);

    /// <summary>
    /// Marks up to <paramref name="batch"/> hot bookings whose slot ended before <paramref name="endedBefore"/>
    /// and that nobody checked in as no-shows at <paramref name="at"/>; answers the place of each one marked.
    /// </summary>
    Task<IReadOnlyList<int>> MarkNoShowsAsync(DateTimeOffset endedBefore, DateTimeOffset at, int batch, CancellationToken ct);

    Task AppendAuditAsync(AuditEntry entry, CancellationToken ct);

    /// <summary>The trail at a place (or everywhere), newest first, between two instants.</summary>
    Task<IReadOnlyList<AuditEntry>> AuditAsync(int? placeId, DateTimeOffset from, DateTimeOffset to, int limit, CancellationToken ct);
}
