using System.Data;
using System.Globalization;
using Microsoft.Data.SqlClient;
using Slots.Staff;

namespace Slots.Storage.SqlServer;

/// <summary>
/// A site's block cancel on SQL Server, as <c>EfStaffStore</c>'s is on SQLite and PostgreSQL: the
/// open, each batch, the finish and a reopen one call of an interpreted proc beside the hot path's (sql/065,
/// sql/066, sql/067, sql/161: one transaction each, the hot rows beside the disk tables); the look for
/// stalled blocks is the shared EF Core store's. Every write retries In-Memory OLTP conflicts: a
/// batch (or a drop of free seats) that races a citizen's cancel, a check-in or a booking on the
/// same hot row loses with 41302, is rolled back whole and runs again on a snapshot that sees the winner.
/// </summary>
public sealed partial class SqlServerStaffStore
{
    // Column sizes, as declared in sql/064 (the reason every SMS of the block carries) and sql/061.
    private const int BlockReasonSize = BlockCancelOptions.MaxReason, TargetSize = 200;

    /// <summary>The calls of the block cancel's procs, public so the tests match them to sql/065-067.</summary>
    public static class BlockCommands
    {
        /// <summary>dbo.site_cancel_open: outputs the block (@id … @kept) and @created.</summary>
        public static SqlCommand Open(BlockCancelRequest r)
        {
            var proc = new SqlCommand("dbo.site_cancel_open") { CommandType = CommandType.StoredProcedure };
            proc.Parameters.Add("@place_id", SqlDbType.Int).Value = r.PlaceId;
            proc.Parameters.Add("@day", SqlDbType.Date).Value = r.Day.ToDateTime(TimeOnly.MinValue);
            proc.Parameters.Add("@from_minute", SqlDbType.Int).Value = r.FromMinute;
            proc.Parameters.Add("@to_minute", SqlDbType.Int).Value = r.ToMinute;
            proc.Parameters.Add("@reason", SqlDbType.NVarChar, BlockReasonSize).Value = r.Reason;
            proc.Parameters.Add("@actor", SqlDbType.NVarChar, SqlServerCommands.StaffSize).Value = r.Actor;
            proc.Parameters.Add("@target", SqlDbType.NVarChar, TargetSize).Value = Target(r.Day, r.FromMinute, r.ToMinute);
            proc.Parameters.Add("@now", SqlDbType.BigInt).Value = r.Now.ToUnixTimeSeconds();
            proc.Parameters.Add("@keep_bookings", SqlDbType.Bit).Value = r.KeepBookings;
            proc.Parameters.Add("@closes_place", SqlDbType.Bit).Value = r.ClosesPlace;
            Output(proc, "@id", SqlDbType.BigInt);
            Output(proc, "@created", SqlDbType.Bit);
            Output(proc, "@block_reason", SqlDbType.NVarChar, BlockReasonSize);
            Output(proc, "@block_actor", SqlDbType.NVarChar, SqlServerCommands.StaffSize);
            Output(proc, "@created_at", SqlDbType.BigInt);
            Output(proc, "@finished_at", SqlDbType.BigInt);
            Output(proc, "@cancelled", SqlDbType.Int);
            Output(proc, "@kept", SqlDbType.Int);
            return proc;
        }

        /// <summary>dbo.site_cancel_finish: answers the block's row.</summary>
        public static SqlCommand Finish(long blockId, DateTimeOffset now)
        {
            var proc = new SqlCommand("dbo.site_cancel_finish") { CommandType = CommandType.StoredProcedure };
            proc.Parameters.Add("@id", SqlDbType.BigInt).Value = blockId;
            proc.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
            return proc;
        }

        /// <summary>dbo.site_cancel_batch: outputs @taken, the bookings this batch cancelled.</summary>
        public static SqlCommand Batch(long blockId, DateTimeOffset now, int batch)
        {
            var proc = new SqlCommand("dbo.site_cancel_batch") { CommandType = CommandType.StoredProcedure };
            proc.Parameters.Add("@id", SqlDbType.BigInt).Value = blockId;
            proc.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
            proc.Parameters.Add("@batch", SqlDbType.Int).Value = batch;
            Output(proc, "@taken", SqlDbType.Int);
            return proc;
        }

        /// <summary>dbo.site_cancel_reopen (sql/161): outputs @reopened, 1 when this call opened the block again.</summary>
        public static SqlCommand Reopen(long blockId, string actor, DateTimeOffset now)
        {
            var proc = new SqlCommand("dbo.site_cancel_reopen") { CommandType = CommandType.StoredProcedure };
            proc.Parameters.Add("@id", SqlDbType.BigInt).Value = blockId;
            proc.Parameters.Add("@actor", SqlDbType.NVarChar, SqlServerCommands.StaffSize).Value = actor;
            proc.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
            Output(proc, "@reopened", SqlDbType.Bit);
            return proc;
        }

        private static void Output(SqlCommand proc, string name, SqlDbType type, int size = 0) =>
            proc.Parameters.Add(name, type, size).Direction = ParameterDirection.Output;
    }

    /// <summary>The block as the trail names it: "2026-11-30 13:00-17:00", the whole day's end being "24:00".</summary>
    public static string Target(DateOnly day, int fromMinute, int toMinute) =>
        string.Create(CultureInfo.InvariantCulture, $"{day:yyyy-MM-dd} {fromMinute / 60:00}:{fromMinute % 60:00}-{toMinute / 60:00}:{toMinute % 60:00}");

    public override async Task<OpenedBlock> OpenBlockCancelAsync(BlockCancelRequest request, CancellationToken ct) =>
        await _retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = BlockCommands.Open(request).On(connection);
            await proc.ExecuteNonQueryAsync(token);
            var finishedAt = (long?)proc.Out("@finished_at");
            var block = new BlockCancel((long)proc.Out("@id")!, request.PlaceId, request.Day, request.FromMinute, request.ToMinute,
                (string)proc.Out("@block_reason")!, (string)proc.Out("@block_actor")!,
                DateTimeOffset.FromUnixTimeSeconds((long)proc.Out("@created_at")!),
                finishedAt is { } f ? DateTimeOffset.FromUnixTimeSeconds(f) : null,
                (int)proc.Out("@cancelled")!, (int)proc.Out("@kept")!);
            return new OpenedBlock(block, (bool)proc.Out("@created")!);
        }, CheckInRetryOn, exhausted: null, ct);

    /// <summary>
    /// A batch that loses a race on a hot row (41302), or meets an attendance row a check-in or the
    /// no-show job committed first (duplicate key), is retried: its rollback was whole, and the
    /// retry no longer takes that booking.
    /// </summary>
    public override async Task<int> CancelBlockBatchAsync(long blockId, DateTimeOffset now, int batch, CancellationToken ct) =>
        await _retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = BlockCommands.Batch(blockId, now, batch).On(connection);
            await proc.ExecuteNonQueryAsync(token);
            return (int)proc.Out("@taken")!;
        }, CheckInRetryOn, exhausted: null, ct);

    /// <summary>A reopen whose seat insert loses a race on a hot row (41302) is rolled back whole and retried.</summary>
    public override async Task<bool> ReopenBlockCancelAsync(long blockId, string actor, DateTimeOffset now, CancellationToken ct) =>
        await _retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = BlockCommands.Reopen(blockId, actor, now).On(connection);
            await proc.ExecuteNonQueryAsync(token);
            return (bool)proc.Out("@reopened")!;
        }, CheckInRetryOn, exhausted: null, ct);

    public override async Task<BlockCancel> FinishBlockCancelAsync(long blockId, DateTimeOffset now, CancellationToken ct) =>
        await _retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var finish = BlockCommands.Finish(blockId, now).On(connection);
            await using var row = await finish.ExecuteReaderAsync(token);
            if (!await row.ReadAsync(token))
            {
                throw new InvalidOperationException($"Block cancel {blockId} answered no row.");
            }
            return new BlockCancel(row.GetInt64(0), row.GetInt32(1), DateOnly.FromDateTime(row.GetDateTime(2)), row.GetInt32(3),
                row.GetInt32(4), row.GetString(5), row.GetString(6), DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(7)),
                row.IsDBNull(8) ? null : DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(8)), row.GetInt32(9), row.GetInt32(10));
        }, CheckInRetryOn, exhausted: null, ct);
}
