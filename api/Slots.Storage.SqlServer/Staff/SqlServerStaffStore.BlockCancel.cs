using Slots.Staff;

namespace Slots.Storage.SqlServer;

public sealed partial class SqlServerStaffStore
{
    public Task<OpenedBlock> OpenBlockCancelAsync(BlockCancelRequest request, CancellationToken ct) => throw new NotImplementedException();

    public Task<int> CancelBlockBatchAsync(long blockId, DateTimeOffset now, int batch, CancellationToken ct) => throw new NotImplementedException();

    public Task<BlockCancel> FinishBlockCancelAsync(long blockId, DateTimeOffset now, CancellationToken ct) => throw new NotImplementedException();

    public Task<IReadOnlyList<long>> StalledBlockCancelsAsync(DateTimeOffset idleSince, CancellationToken ct) => throw new NotImplementedException();
}
