using Microsoft.Extensions.Options;

namespace Slots.Staff;

/// <summary>
/// Runs a site's block cancels: closes the block's slots at once, then cancels their bookings a
/// batch at a time until none is left, each with its SMS. Asking for the same block again answers
/// it (running it to the end if its first runner died). Stopped half-way (the caller gone, the
/// process killed), a block is finished by <see cref="ResumeBlockCancelsJob"/>.
/// </summary>
public sealed class BlockCancels(IStaffStore store, TimeProvider clock, IOptions<BlockCancelOptions> options, StaffMetrics metrics)
{
    public async Task<OpenedBlock> CancelAsync(BlockCancelRequest request, CancellationToken ct)
    {
        var opened = await store.OpenBlockCancelAsync(request, ct);
        return opened.Block.Finished ? opened : opened with { Block = await RunAsync(opened.Block.Id, ct) };
    }

    /// <summary>Cancels what is left of the block and marks it finished.</summary>
    public async Task<BlockCancel> RunAsync(long blockId, CancellationToken ct)
    {
        int taken;
        do
        {
            taken = await store.CancelBlockBatchAsync(blockId, clock.GetUtcNow(), options.Value.Batch, ct);
            metrics.CancelledBySite(taken);
        }
        while (taken > 0);
        return await store.FinishBlockCancelAsync(blockId, clock.GetUtcNow(), ct);
    }
}
