using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Staff;

namespace Slots.Storage.SqlServer;

/// <summary>What one call of dbo.staff_check_in answered: its @status (1, 2 or 4), and the check-in that holds.</summary>
public readonly record struct CheckInProcAnswer(int Status, long? HeldAt = null, string? HeldBy = null);

/// <summary>
/// The staff side on SQL Server through SqlClient, as <c>EfStaffStore</c> is on SQLite and
/// PostgreSQL: the roster and a booking at the door each in one batch (hot rows read WITH
/// (SNAPSHOT) beside the disk tables), the check-in in one call of the native dbo.staff_check_in
/// (sql/062), which against dbo.cancel lets exactly one win; the loser's 41302 is retried here.
/// Not executed on the build machines (no SQL Server there): the statements and the proc are
/// parse-checked by tests/Slots.SqlServer.Tests.
/// </summary>
public sealed partial class SqlServerStaffStore : IStaffStore
{
    /// <summary>
    /// What the door's writes retry: conflicts, and a duplicate key from a racer that inserted the
    /// same code's attendance row first (the no-show job, or a check-in); the retry reads that row.
    /// </summary>
    public static readonly IReadOnlySet<int> CheckInRetryOn = new HashSet<int>([.. SqlServerErrors.Conflicts, .. SqlServerErrors.DuplicateKey]);

    // Column sizes, as declared in sql/061.
    private const int ActionSize = 64, TargetSize = 200, ReasonSize = 1000;

    /// <summary>The statements this store sends, public so the tests parse each one.</summary>
    public static class Sql
    {
        /// <summary>
        /// A place's day, in one round trip: the active bookings with their door records (a hot day's
        /// hot rows, or a disk day's rows), then cancels still waiting for the flush, then cancels on
        /// disk, each cancel with the door record a site's block cancel left (state 5). Read in that
        /// order so a cancel or a flush between two statements shows a booking twice (the adapter
        /// keeps the later state) rather than not at all.
        /// </summary>
        public const string Day = """
            DECLARE @hot bit = 0;
            SELECT @hot = 1 FROM dbo.places WHERE id = @place_id AND @day < hot_until;
            SELECT h.code, h.start_minute, h.minutes, h.seat_no, h.name, h.phone, h.language, a.state, a.at, a.[by]
            FROM dbo.hot_reservations h WITH (SNAPSHOT)
            LEFT JOIN dbo.attendance a WITH (SNAPSHOT) ON a.code = h.code
            WHERE @hot = 1 AND h.place_id = @place_id AND h.day = @day
            UNION ALL
            SELECT r.code, r.start_minute, COALESCE(s.minutes, 0), r.seat_no, r.name, r.phone, r.language, a.state, a.at, a.[by]
            FROM dbo.reservations r
            LEFT JOIN dbo.slots s ON s.place_id = r.place_id AND s.day = r.day AND s.start_minute = r.start_minute
            LEFT JOIN dbo.attendance a WITH (SNAPSHOT) ON a.code = r.code
            WHERE @hot = 0 AND r.place_id = @place_id AND r.day = @day AND r.cancelled_at IS NULL;
            SELECT c.code, c.start_minute, COALESCE(s.minutes, 0), c.seat_no, c.name, c.phone, c.language, c.at, a.at, a.[by]
            FROM dbo.changes c WITH (SNAPSHOT)
            LEFT JOIN dbo.slots s ON s.place_id = c.place_id AND s.day = c.day AND s.start_minute = c.start_minute
            LEFT JOIN dbo.attendance a WITH (SNAPSHOT) ON a.code = c.code AND a.state = 5
            WHERE @hot = 1 AND c.kind = 2 AND c.place_id = @place_id AND c.day = @day;
            SELECT r.code, r.start_minute, COALESCE(s.minutes, 0), r.seat_no, r.name, r.phone, r.language, r.cancelled_at, a.at, a.[by]
            FROM dbo.reservations r
            LEFT JOIN dbo.slots s ON s.place_id = r.place_id AND s.day = r.day AND s.start_minute = r.start_minute
            LEFT JOIN dbo.attendance a WITH (SNAPSHOT) ON a.code = r.code AND a.state = 5
            WHERE r.place_id = @place_id AND r.day = @day AND r.cancelled_at IS NOT NULL;
            """;

        /// <summary>
        /// A booking by code wherever it is, in one round trip: its door record, the hot row, the
        /// latest cancel waiting for the flush, the disk row (in that order, so a cancel or a flush
        /// between two statements moves it from one answer to a later one, never out of all).
        /// The booking's columns are <see cref="SqlServerCommands.ReadDetails"/>'s shape.
        /// </summary>
        public const string Find = """
            SELECT state, at, [by] FROM dbo.attendance WITH (SNAPSHOT) WHERE code = @code;
            SELECT place_id, day, start_minute, minutes, seat_no, phone, person_hash, name, language, created_at
            FROM dbo.hot_reservations WITH (SNAPSHOT) WHERE code = @code;
            SELECT TOP (1) place_id, day, start_minute, 0, seat_no, phone, person_hash, name, language, created_at, at
            FROM dbo.changes WITH (SNAPSHOT) WHERE code = @code AND kind = 2 ORDER BY id DESC;
            SELECT place_id, day, start_minute, 0, seat_no, phone, person_hash, name, language, created_at, cancelled_at
            FROM dbo.reservations WHERE code = @code;
            """;

        /// <summary>
        /// Up to @batch hot bookings whose slot ended before @ended and that have no door record
        /// become no-shows; answers the place of each. Interpreted (it runs from the scheduler, not a
        /// request), so the memory-optimized tables carry WITH (SNAPSHOT). A slot's local day is at
        /// most a day after the UTC date it ended on (offsets reach +14 h), so @last_day keeps the
        /// scan to the ended days on hot_reservations' (day, place_id) index.
        /// </summary>
        public const string MarkNoShows = """
            INSERT dbo.attendance WITH (SNAPSHOT) (code, place_id, day, state, at, [by])
            OUTPUT INSERTED.place_id
            SELECT TOP (@batch) h.code, h.place_id, h.day, 3, @now, N'no-show'
            FROM dbo.hot_reservations h WITH (SNAPSHOT)
            WHERE h.day <= @last_day AND h.starts_at + h.minutes * 60 <= @ended
              AND NOT EXISTS (SELECT 1 FROM dbo.attendance a WITH (SNAPSHOT) WHERE a.code = h.code);
            """;

        public const string AppendAudit = """
            INSERT dbo.staff_audit (at, actor, place_id, action, target, reason)
            VALUES (@at, @actor, @place_id, @action, @target, @reason);
            """;

        public const string AuditAtPlace = """
            SELECT TOP (@limit) id, at, actor, place_id, action, target, reason
            FROM dbo.staff_audit
            WHERE place_id = @place_id AND at >= @from AND at <= @to
            ORDER BY at DESC, id DESC;
            """;

        public const string AuditEverywhere = """
            SELECT TOP (@limit) id, at, actor, place_id, action, target, reason
            FROM dbo.staff_audit
            WHERE at >= @from AND at <= @to
            ORDER BY at DESC, id DESC;
            """;
    }

    private readonly SqlServerConnectionString _connectionString;
    private readonly SqlServerRetryPolicy _retry;
    private readonly Func<CheckInCommand, CancellationToken, ValueTask<CheckInProcAnswer>> _checkIn;

    public SqlServerStaffStore(SqlServerConnectionString connectionString, SqlServerRetryPolicy retry)
    {
        _connectionString = connectionString;
        _retry = retry;
        _checkIn = CallCheckInAsync;
    }

    private SqlServerStaffStore(Func<CheckInCommand, CancellationToken, ValueTask<CheckInProcAnswer>> checkIn, SqlServerRetryPolicy retry)
    {
        _connectionString = new SqlServerConnectionString("");
        _retry = retry;
        _checkIn = checkIn;
    }

    /// <summary>The store over another check-in call (tests: one that raises error numbers or answers raw statuses).</summary>
    public static SqlServerStaffStore Over(Func<CheckInCommand, CancellationToken, ValueTask<CheckInProcAnswer>> checkIn, SqlServerRetryPolicy retry) =>
        new(checkIn, retry);

    /// <summary>
    /// The loser of a race with the citizen's cancel (or another check-in) gets 41302 at once; the
    /// retry runs on a fresh snapshot and answers what the winner did.
    /// </summary>
    public async Task<CheckInAnswer> CheckInAsync(CheckInCommand command, CancellationToken ct) =>
        Answer(await _retry.ExecuteAsync(token => _checkIn(command, token), CheckInRetryOn, exhausted: null, ct), command);

    /// <summary>dbo.staff_check_in's numbers as the port's answer, the numbers being PostgreSQL's staff_check_in's.</summary>
    public static CheckInAnswer Answer(CheckInProcAnswer proc, CheckInCommand command) => proc.Status switch
    {
        1 => new CheckInAnswer(CheckInStatus.CheckedIn, command.Now, command.By),
        2 => new CheckInAnswer(CheckInStatus.AlreadyCheckedIn, DateTimeOffset.FromUnixTimeSeconds(proc.HeldAt!.Value), proc.HeldBy),
        4 => new CheckInAnswer(CheckInStatus.Cancelled),
        _ => throw new InvalidOperationException($"dbo.staff_check_in answered unknown status {proc.Status}."),
    };

    /// <summary>
    /// A check-in that commits first makes this statement's insert of the same code a conflict
    /// (41302, or a duplicate key once committed): the retry no longer sees the booking without a
    /// door record. A check-in that comes later turns the no-show into a check-in (sql/062).
    /// </summary>
    public async Task<IReadOnlyList<int>> MarkNoShowsAsync(DateTimeOffset endedBefore, DateTimeOffset at, int batch, CancellationToken ct) =>
        await _retry.ExecuteAsync<IReadOnlyList<int>>(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var insert = new SqlCommand(Sql.MarkNoShows, connection);
            insert.Parameters.Add("@batch", SqlDbType.Int).Value = batch;
            insert.Parameters.Add("@now", SqlDbType.BigInt).Value = at.ToUnixTimeSeconds();
            insert.Parameters.Add("@ended", SqlDbType.BigInt).Value = endedBefore.ToUnixTimeSeconds();
            insert.Parameters.Add("@last_day", SqlDbType.Date).Value = endedBefore.UtcDateTime.Date.AddDays(1);
            var places = new List<int>();
            await using var row = await insert.ExecuteReaderAsync(token);
            while (await row.ReadAsync(token))
            {
                places.Add(row.GetInt32(0));
            }
            return places;
        }, CheckInRetryOn, exhausted: null, ct);

    public async Task AppendAuditAsync(AuditEntry entry, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var insert = new SqlCommand(Sql.AppendAudit, connection);
        insert.Parameters.Add("@at", SqlDbType.BigInt).Value = entry.At.ToUnixTimeSeconds();
        insert.Parameters.Add("@actor", SqlDbType.NVarChar, SqlServerCommands.StaffSize).Value = entry.Actor;
        insert.Parameters.Add("@place_id", SqlDbType.Int).Value = (object?)entry.PlaceId ?? DBNull.Value;
        insert.Parameters.Add("@action", SqlDbType.VarChar, ActionSize).Value = entry.Action;
        insert.Parameters.Add("@target", SqlDbType.NVarChar, TargetSize).Value = (object?)entry.Target ?? DBNull.Value;
        insert.Parameters.Add("@reason", SqlDbType.NVarChar, ReasonSize).Value = (object?)entry.Reason ?? DBNull.Value;
        await insert.ExecuteNonQueryAsync(ct);
    }

    public async Task<IReadOnlyList<AuditEntry>> AuditAsync(int? placeId, DateTimeOffset from, DateTimeOffset to, int limit, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        // Two statements rather than "@place_id IS NULL OR ...": each keeps a plan on its own index.
        await using var query = new SqlCommand(placeId is null ? Sql.AuditEverywhere : Sql.AuditAtPlace, connection);
        query.Parameters.Add("@from", SqlDbType.BigInt).Value = from.ToUnixTimeSeconds();
        query.Parameters.Add("@to", SqlDbType.BigInt).Value = to.ToUnixTimeSeconds();
        query.Parameters.Add("@limit", SqlDbType.Int).Value = limit;
        if (placeId is { } place)
        {
            query.Parameters.Add("@place_id", SqlDbType.Int).Value = place;
        }
        var entries = new List<AuditEntry>();
        await using var row = await query.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            entries.Add(new AuditEntry(row.GetInt64(0), DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(1)), row.GetString(2),
                row.IsDBNull(3) ? null : row.GetInt32(3), row.GetString(4), row.IsDBNull(5) ? null : row.GetString(5),
                row.IsDBNull(6) ? null : row.GetString(6)));
        }
        return entries;
    }

    private async ValueTask<CheckInProcAnswer> CallCheckInAsync(CheckInCommand command, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var proc = SqlServerCommands.StaffCheckIn(command).On(connection);
        await proc.ExecuteNonQueryAsync(ct);
        var answer = new CheckInProcAnswer((int)proc.Out("@status")!, (long?)proc.Out("@held_at"), (string?)proc.Out("@held_by"));
        if (answer.Status == 1)
        {
            // staff_audit is a disk table, which a natively compiled proc cannot write: its entry follows the check-in.
            await AppendAuditAsync(new AuditEntry(0, command.Now, command.By, command.PlaceId, command.Action, command.Code, null), ct);
        }
        return answer;
    }

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(_connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}
