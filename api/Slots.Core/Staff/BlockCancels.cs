using System.Globalization;
using Microsoft.Extensions.Options;
using Slots.Reservations;

namespace Slots.Staff;

/// <summary>
/// Runs a site's block cancels: closes the block's slots at once, then cancels their bookings a
/// batch at a time until none is left, each with its SMS. Asking for the same block again answers
/// it (running it to the end if its first runner died). Stopped half-way (the caller gone, the
/// process killed), a block is finished by <see cref="ResumeBlockCancelsJob"/>.
/// </summary>
public sealed class BlockCancels(
    IStaffStore store, ReservationService reservations, TimeProvider clock, IOptions<BlockCancelOptions> options, StaffMetrics metrics,
    AvailabilitySnapshot availability)
{
    public async Task<OpenedBlock> CancelAsync(BlockCancelRequest request, CancellationToken ct)
    {
        var opened = await store.OpenBlockCancelAsync(request, ct);
        return opened.Block.Finished ? opened : opened with { Block = await RunAsync(opened.Block.Id, ct) };
    }

    /// <summary>
    /// Cancels what is left of the block, then the other half of each two-dose pair it took one half
    /// of (a pair is booked whole and goes whole: the person books the pair again), and marks the
    /// block finished. Each step is idempotent, so a run cut off anywhere is finished by the next.
    /// </summary>
    public async Task<BlockCancel> RunAsync(long blockId, CancellationToken ct)
    {
        int taken;
        do
        {
            taken = await store.CancelBlockBatchAsync(blockId, clock.GetUtcNow(), options.Value.Batch, ct);
            metrics.CancelledBySite(taken);
        }
        while (taken > 0);
        // A block that cancelled nothing (one that keeps its bookings, or found none) has no pair to finish.
        if (await store.BlockCancelAsync(blockId, ct) is { FinishedAt: null, Cancelled: > 0 } block)
        {
            var bySite = (await store.DayAsync(block.PlaceId, block.Day, ct))
                .Where(r => r.State == RosterState.CancelledBySite && r.StartMinute >= block.FromMinute && r.StartMinute < block.ToMinute)
                .Select(r => r.Code).ToHashSet(StringComparer.Ordinal);
            metrics.CancelledBySite(await reservations.CancelOtherHalvesAsync(bySite, ct));
        }
        return await store.FinishBlockCancelAsync(blockId, clock.GetUtcNow(), ct);
    }

    /// <summary>The site's own blocks of the place from <paramref name="today"/> on that stand, by day and start.</summary>
    public Task<IReadOnlyList<BlockCancel>> StandingAsync(int placeId, DateOnly today, CancellationToken ct) =>
        store.StandingSiteBlocksAsync(placeId, today, ct);

    /// <summary>
    /// Opens one of the site's standing blocks of the place again: its slots take bookings (one that another
    /// standing block covers stays closed), the seats they lack come back free, cancelled bookings stay
    /// cancelled; recorded in the trail. A block of a place's close opens with the place (PlaceClosing).
    /// </summary>
    /// <param name="today">today at the place: a block of a day that has passed is not opened again</param>
    public async Task<bool> ReopenAsync(int placeId, long blockId, DateOnly today, string actor, CancellationToken ct)
    {
        if (!(await store.StandingSiteBlocksAsync(placeId, today, ct)).Any(b => b.Id == blockId))
        {
            return false;
        }
        var now = DateTimeOffset.FromUnixTimeSeconds(clock.GetUtcNow().ToUnixTimeSeconds());
        // False: another manager opened it a moment ago; theirs is the entry in the trail.
        if (!await store.ReopenBlockCancelAsync(blockId, actor, now, ct))
        {
            return false;
        }
        availability.Forget();
        await store.AppendAuditAsync(new AuditEntry(0, now, actor, placeId, AuditActions.BlockReopened,
            blockId.ToString(CultureInfo.InvariantCulture), null), ct);
        return true;
    }
}
