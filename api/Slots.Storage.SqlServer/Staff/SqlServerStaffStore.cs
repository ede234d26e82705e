using System.Data;
using Microsoft.Data.SqlClient;
using Microsoft.Extensions.DependencyInjection;
using Slots.Staff;
using Slots.Storage.Ef.Staff;

namespace Slots.Storage.SqlServer;

/// <summary>What one call of dbo.staff_check_in answered: its @status (1, 2 or 4), and the check-in that holds.</summary>
public readonly record struct CheckInProcAnswer(int Status, long? HeldAt = null, string? HeldBy = null);

/// <summary>
/// The staff side on SQL Server: the shared EF Core store on SQL Server's provider for what reads
/// and what writes only disk tables (the roster, a booking at the door, the trail, the look for
/// stalled blocks), the same code SQLite and PostgreSQL run and test; procs beside the hot path's
/// for the writes that meet the hot rows: the check-in in the native dbo.staff_check_in (sql/062),
/// which against dbo.cancel lets exactly one win, the no-shows in dbo.staff_mark_no_shows (sql/068)
/// and the block cancel (sql/064-067). A write that loses a race on a hot row (41302) is retried here.
/// Not executed on the build machines (no SQL Server there): the procs are parse-checked by
/// tests/Slots.SqlServer.Tests.
/// </summary>
public sealed partial class SqlServerStaffStore : EfStaffStore
{
    /// <summary>
    /// What the door's writes retry: conflicts, and a duplicate key from a racer that inserted the
    /// same code's attendance row first (the no-show job, or a check-in); the retry reads that row.
    /// </summary>
    public static readonly IReadOnlySet<int> CheckInRetryOn = new HashSet<int>([.. SqlServerErrors.Conflicts, .. SqlServerErrors.DuplicateKey]);

    private readonly SqlServerConnectionString _connectionString;
    private readonly SqlServerRetryPolicy _retry;
    private readonly Func<CheckInCommand, CancellationToken, ValueTask<CheckInProcAnswer>> _checkIn;

    public SqlServerStaffStore(IServiceScopeFactory scopes, SqlServerConnectionString connectionString, SqlServerRetryPolicy retry) : base(scopes)
    {
        _connectionString = connectionString;
        _retry = retry;
        _checkIn = CallCheckInAsync;
    }

    private SqlServerStaffStore(IServiceScopeFactory scopes, Func<CheckInCommand, CancellationToken, ValueTask<CheckInProcAnswer>> checkIn, SqlServerRetryPolicy retry)
        : base(scopes)
    {
        _connectionString = new SqlServerConnectionString("");
        _retry = retry;
        _checkIn = checkIn;
    }

    /// <summary>The store over another check-in call (tests: one that raises error numbers or answers raw statuses).</summary>
    public static SqlServerStaffStore Over(IServiceScopeFactory scopes, Func<CheckInCommand, CancellationToken, ValueTask<CheckInProcAnswer>> checkIn,
        SqlServerRetryPolicy retry) => new(scopes, checkIn, retry);

    /// <summary>The calls of the staff procs beside the check-in, public so the tests match them to sql/.</summary>
    public static class Commands
    {
        /// <summary>dbo.staff_mark_no_shows: one row (place_id) per booking marked.</summary>
        public static SqlCommand MarkNoShows(DateTimeOffset endedBefore, DateTimeOffset at, int batch)
        {
            var proc = new SqlCommand("dbo.staff_mark_no_shows") { CommandType = CommandType.StoredProcedure };
            proc.Parameters.Add("@batch", SqlDbType.Int).Value = batch;
            proc.Parameters.Add("@now", SqlDbType.BigInt).Value = at.ToUnixTimeSeconds();
            proc.Parameters.Add("@ended", SqlDbType.BigInt).Value = endedBefore.ToUnixTimeSeconds();
            proc.Parameters.Add("@last_day", SqlDbType.Date).Value = endedBefore.UtcDateTime.Date.AddDays(1);
            return proc;
        }
    }

    /// <summary>
    /// The loser of a race with the citizen's cancel (or another check-in) gets 41302 at once; the
    /// retry runs on a fresh snapshot and answers what the winner did.
    /// </summary>
    public override async Task<CheckInAnswer> CheckInAsync(CheckInCommand command, CancellationToken ct) =>
        Answer(await _retry.ExecuteAsync(token => _checkIn(command, token), CheckInRetryOn, exhausted: null, ct), command);

    /// <summary>dbo.staff_check_in's numbers as the port's answer, the numbers being PostgreSQL's staff_check_in's.</summary>
    public static CheckInAnswer Answer(CheckInProcAnswer proc, CheckInCommand command) => proc.Status switch
    {
        1 => new CheckInAnswer(CheckInStatus.CheckedIn, command.Now, command.By),
        2 => new CheckInAnswer(CheckInStatus.AlreadyCheckedIn, DateTimeOffset.FromUnixTimeSeconds(proc.HeldAt!.Value), proc.HeldBy),
        4 => new CheckInAnswer(CheckInStatus.Cancelled),
        _ => throw new InvalidOperationException($"dbo.staff_check_in answered unknown status {proc.Status}."),
    };

    /// <summary>A check-in that commits first makes the proc's insert of the same code a conflict, retried (sql/068).</summary>
    public override async Task<IReadOnlyList<int>> MarkNoShowsAsync(DateTimeOffset endedBefore, DateTimeOffset at, int batch, CancellationToken ct) =>
        await _retry.ExecuteAsync<IReadOnlyList<int>>(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = Commands.MarkNoShows(endedBefore, at, batch).On(connection);
            var places = new List<int>();
            await using var row = await proc.ExecuteReaderAsync(token);
            while (await row.ReadAsync(token))
            {
                places.Add(row.GetInt32(0));
            }
            return places;
        }, CheckInRetryOn, exhausted: null, ct);

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
