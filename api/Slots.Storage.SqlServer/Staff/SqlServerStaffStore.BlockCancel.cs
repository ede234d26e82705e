using System.Data;
using System.Globalization;
using Microsoft.Data.SqlClient;
using Slots.Staff;

namespace Slots.Storage.SqlServer;

/// <summary>
/// A site's block cancel on SQL Server, as <c>EfStaffStore</c>'s is on SQLite and PostgreSQL: the
/// open and each batch one call of an interpreted proc (sql/065, sql/066: one transaction each,
/// the hot rows beside the disk tables), the finish and the look for stalled blocks one batch of
/// <see cref="BlockSql"/> each. Every write retries In-Memory OLTP conflicts: a batch (or the
/// open's drop of free seats) that races a citizen's cancel, a check-in or a booking on the same
/// hot row loses with 41302, is rolled back whole and runs again on a snapshot that sees the winner.
/// </summary>
public sealed partial class SqlServerStaffStore
{
    // Column size, as declared in sql/064: the reason every SMS of the block carries.
    private const int BlockReasonSize = BlockCancelOptions.MaxReason;

    /// <summary>The block cancel's statements beside its procs, public so the tests parse each one.</summary>
    public static class BlockSql
    {
        /// <summary>
        /// Finishes the block, unless finished before: counts the bookings it left (a hot day's hot
        /// rows, a disk day's active rows), drops the free seats left, and answers the block's row
        /// (read after the commit: a finished block's row changes no more).
        /// The locks are dbo.site_cancel_batch's (sql/066): the block's row, then the place's shared,
        /// so a batch still running for the block is waited for and the day stays where it is.
        /// </summary>
        public const string Finish = """
            SET XACT_ABORT ON;
            BEGIN TRANSACTION;
            DECLARE @place_id int = NULL, @day date, @from_minute int, @to_minute int, @finished_at bigint;
            SELECT @place_id = place_id, @day = day, @from_minute = from_minute, @to_minute = to_minute, @finished_at = finished_at
            FROM dbo.site_cancels WITH (UPDLOCK, HOLDLOCK)
            WHERE id = @id;
            IF @place_id IS NULL
                THROW 50062, N'finish block cancel: unknown block', 1;
            IF @finished_at IS NULL
            BEGIN
                DECLARE @horizon date = NULL, @kept int = 0;
                SELECT @horizon = hot_until FROM dbo.places WITH (HOLDLOCK, ROWLOCK) WHERE id = @place_id;
                IF @day < @horizon
                    SELECT @kept = COUNT(*) FROM dbo.hot_reservations WITH (SNAPSHOT)
                    WHERE day = @day AND place_id = @place_id AND start_minute >= @from_minute AND start_minute < @to_minute;
                ELSE
                    SELECT @kept = COUNT(*) FROM dbo.reservations
                    WHERE place_id = @place_id AND day = @day AND start_minute >= @from_minute AND start_minute < @to_minute
                      AND cancelled_at IS NULL;
                DELETE dbo.hot_seats WITH (SNAPSHOT)
                WHERE place_id = @place_id AND day = @day AND start_minute >= @from_minute AND start_minute < @to_minute
                  AND hold = 0 AND code IS NULL;
                UPDATE dbo.site_cancels SET kept = @kept, finished_at = @now, progress_at = @now
                WHERE id = @id;
            END
            COMMIT TRANSACTION;
            SELECT id, place_id, day, from_minute, to_minute, reason, actor, created_at, finished_at, cancelled, kept
            FROM dbo.site_cancels
            WHERE id = @id;
            """;

        /// <summary>Unfinished blocks with no progress since @before: their runner died (ix_site_cancels_unfinished).</summary>
        public const string Stalled = """
            SELECT id FROM dbo.site_cancels
            WHERE finished_at IS NULL AND progress_at < @before
            ORDER BY id;
            """;
    }

    /// <summary>The calls of the block cancel's procs, public so the tests match them to sql/065 and sql/066.</summary>
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

        private static void Output(SqlCommand proc, string name, SqlDbType type, int size = 0) =>
            proc.Parameters.Add(name, type, size).Direction = ParameterDirection.Output;
    }

    /// <summary>The block as the trail names it: "2026-11-30 13:00-17:00", the whole day's end being "24:00".</summary>
    public static string Target(DateOnly day, int fromMinute, int toMinute) =>
        string.Create(CultureInfo.InvariantCulture, $"{day:yyyy-MM-dd} {fromMinute / 60:00}:{fromMinute % 60:00}-{toMinute / 60:00}:{toMinute % 60:00}");

    public async Task<OpenedBlock> OpenBlockCancelAsync(BlockCancelRequest request, CancellationToken ct) =>
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
    public async Task<int> CancelBlockBatchAsync(long blockId, DateTimeOffset now, int batch, CancellationToken ct) =>
        await _retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = BlockCommands.Batch(blockId, now, batch).On(connection);
            await proc.ExecuteNonQueryAsync(token);
            return (int)proc.Out("@taken")!;
        }, CheckInRetryOn, exhausted: null, ct);

    public async Task<BlockCancel> FinishBlockCancelAsync(long blockId, DateTimeOffset now, CancellationToken ct) =>
        await _retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var finish = new SqlCommand(BlockSql.Finish, connection);
            finish.Parameters.Add("@id", SqlDbType.BigInt).Value = blockId;
            finish.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
            await using var row = await finish.ExecuteReaderAsync(token);
            if (!await row.ReadAsync(token))
            {
                throw new InvalidOperationException($"Block cancel {blockId} answered no row.");
            }
            return new BlockCancel(row.GetInt64(0), row.GetInt32(1), DateOnly.FromDateTime(row.GetDateTime(2)), row.GetInt32(3),
                row.GetInt32(4), row.GetString(5), row.GetString(6), DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(7)),
                row.IsDBNull(8) ? null : DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(8)), row.GetInt32(9), row.GetInt32(10));
        }, CheckInRetryOn, exhausted: null, ct);

    public async Task<IReadOnlyList<long>> StalledBlockCancelsAsync(DateTimeOffset idleSince, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var query = new SqlCommand(BlockSql.Stalled, connection);
        query.Parameters.Add("@before", SqlDbType.BigInt).Value = idleSince.ToUnixTimeSeconds();
        var ids = new List<long>();
        await using var row = await query.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            ids.Add(row.GetInt64(0));
        }
        return ids;
    }
}
