namespace Slots.Staff;

/// <summary>What the door and the staff screens need from the database, on every backend.</summary>
public interface IStaffStore
{
    /// <summary>
    /// Every booking of the place's day, active and cancelled, from the hot tables and the disk tables alike,
    /// without the people's names and phones.
    /// </summary>
    Task<IReadOnlyList<RosterEntry>> DayAsync(int placeId, DateOnly day, CancellationToken ct);

    /// <summary>
    /// The query's page of the day, in the roster's order (<see cref="RosterSelection"/>) with its people, how many
    /// bookings match and the day's counts.
    /// </summary>
    Task<RosterPage> RosterAsync(RosterQuery query, CancellationToken ct);

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

    /// <summary>
    /// Writes the block with its audit entry and closes its slots to bookings (the free hot seats go,
    /// the catalogue rows are marked), all in one step; or answers the block as it was asked before.
    /// </summary>
    Task<OpenedBlock> OpenBlockCancelAsync(BlockCancelRequest request, CancellationToken ct);

    /// <summary>
    /// Cancels up to <paramref name="batch"/> more bookings of the block in one transaction: each one
    /// cancelled, marked cancelled by the site and its SMS queued together. Checked-in bookings and
    /// slots started by <paramref name="now"/> are left. Returns how many it cancelled (0: none left).
    /// </summary>
    Task<int> CancelBlockBatchAsync(long blockId, DateTimeOffset now, int batch, CancellationToken ct);

    /// <summary>Marks the block finished with the count of bookings it left, and answers it.</summary>
    Task<BlockCancel> FinishBlockCancelAsync(long blockId, DateTimeOffset now, CancellationToken ct);

    /// <summary>The block as it stands, or null when there is none with this id.</summary>
    Task<BlockCancel?> BlockCancelAsync(long blockId, CancellationToken ct);

    /// <summary>
    /// The blocks of the place from <paramref name="fromDay"/> on that stand (not opened again), in
    /// id order; only those of a place's close when <paramref name="closesPlace"/>.
    /// </summary>
    Task<IReadOnlyList<long>> StandingBlocksAsync(int placeId, DateOnly fromDay, bool closesPlace, CancellationToken ct);

    /// <summary>The site's own blocks of the place from <paramref name="fromDay"/> on that stand (not a place's close), by day and start.</summary>
    Task<IReadOnlyList<BlockCancel>> StandingSiteBlocksAsync(int placeId, DateOnly fromDay, CancellationToken ct);

    /// <summary>
    /// Opens the block again in one step: marked opened (and finished: it cancels nothing more), its
    /// slots take bookings again (one that another standing block covers stays closed), and on a hot
    /// day the seats they lack come back free. Cancelled bookings stay cancelled. False when the block
    /// was not standing.
    /// </summary>
    Task<bool> ReopenBlockCancelAsync(long blockId, string actor, DateTimeOffset now, CancellationToken ct);

    /// <summary>The unfinished blocks with no progress since <paramref name="idleSince"/>: their runner died.</summary>
    Task<IReadOnlyList<long>> StalledBlockCancelsAsync(DateTimeOffset idleSince, CancellationToken ct);

    Task AppendAuditAsync(AuditEntry entry, CancellationToken ct);

    /// <summary>The trail at a place (or everywhere), newest first, between two instants.</summary>
    Task<IReadOnlyList<AuditEntry>> AuditAsync(int? placeId, DateTimeOffset from, DateTimeOffset to, int limit, CancellationToken ct);
}
