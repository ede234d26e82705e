using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Reservations;
using Slots.Sms;
using Slots.WaitingList;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The waiting list on SQL Server, as <c>EfWaitingListStore</c> is on SQLite and PostgreSQL: the
/// entries and offers in disk tables (sql/080-081), the seats in the hot ones, read and written
/// WITH (SNAPSHOT). A seat the list holds back from the crowd has hold 1: kept for the line (no
/// offer_id) or held for one entry (offer_id), its code NULL; dbo.reserve and dbo.availability
/// take and count only seats with no code and no hold. Each write is one batch and one transaction, retried on
/// In-Memory OLTP conflicts; the claim is one call of dbo.waitlist_claim (sql/082), which books the
/// held seat through dbo.reserve. Every writer of an offer locks its entry first, as the claim does.
/// Not executed on the build machines (no SQL Server there): the statements and the proc are
/// parse-checked by tests/Slots.SqlServer.Tests.
/// </summary>
public sealed partial class SqlServerWaitingListStore(SqlServerConnectionString connectionString, SqlServerRetryPolicy retry) : IWaitingListStore
{
    /// <summary>
    /// What the writes retry: the door's set (conflicts; a duplicate key from a racer's join, which the
    /// retry reads as the entry on the list), and a deadlock victim, rolled back whole like the others.
    /// </summary>
    private static readonly IReadOnlySet<int> RetryOn = new HashSet<int>([.. SqlServerStaffStore.CheckInRetryOn, 1205]);

    // Column sizes, as declared in sql/080 and sql/081.
    private const int TokenSize = 64, NoteSize = 100;

    public async Task<JoinAnswer> JoinAsync(JoinCommand command, CancellationToken ct) =>
        await retry.ExecuteAsync(async token =>
        {
            var c = command;
            await using var connection = await OpenAsync(token);
            await using var join = new SqlCommand(Sql.Join, connection);
            join.Parameters.Add("@place_id", SqlDbType.Int).Value = c.PlaceId;
            join.Parameters.Add("@from", SqlDbType.Date).Value = c.From.ToDateTime(TimeOnly.MinValue);
            join.Parameters.Add("@to", SqlDbType.Date).Value = c.To.ToDateTime(TimeOnly.MinValue);
            join.Parameters.Add("@person_hash", SqlDbType.VarChar, SqlServerCommands.PersonSize).Value = c.PersonHash;
            join.Parameters.Add("@phone", SqlDbType.VarChar, SqlServerCommands.PhoneSize).Value = c.Phone;
            join.Parameters.Add("@name", SqlDbType.NVarChar, SqlServerCommands.NameSize).Value = c.Name;
            join.Parameters.Add("@language", SqlDbType.VarChar, SqlServerCommands.LanguageSize).Value = c.Language;
            join.Parameters.Add("@token", SqlDbType.VarChar, TokenSize).Value = c.Token;
            join.Parameters.Add("@now", SqlDbType.BigInt).Value = c.Now.ToUnixTimeSeconds();
            await using var row = await join.ExecuteReaderAsync(token);
            await row.ReadAsync(token);
            var status = (JoinStatus)row.GetInt32(0);
            return status is JoinStatus.Joined or JoinStatus.AlreadyOnList
                ? new JoinAnswer(status, row.GetString(1), row.GetInt32(2))
                : new JoinAnswer(status);
        }, RetryOn, exhausted: null, ct);

    public async Task<EntryView?> FindAsync(string token, DateTimeOffset now, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var find = new SqlCommand(Sql.Find, connection);
        find.Parameters.Add("@token", SqlDbType.VarChar, TokenSize).Value = token;
        await using var row = await find.ExecuteReaderAsync(ct);
        if (!await row.ReadAsync(ct))
        {
            return null;
        }
        var (placeId, from, to, state, name) = (row.GetInt32(1), Day(row, 2), Day(row, 3), (EntryState)row.GetInt16(4), row.GetString(5));
        await row.NextResultAsync(ct);
        Offer? open = null;
        string? bookedCode = null;
        while (await row.ReadAsync(ct))
        {
            var offerState = row.GetInt16(6);
            if (offerState == 1 && open is null)
            {
                open = new Offer(row.GetInt64(0), new SlotKey(row.GetInt32(1), Day(row, 2), row.GetInt32(3)), row.GetInt32(8),
                    DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(4)), DateTimeOffset.FromUnixTimeSeconds(row.GetInt64(5)));
            }
            else if (offerState == 2 && bookedCode is null)
            {
                bookedCode = row.IsDBNull(7) ? null : row.GetString(7);
            }
        }
        await row.NextResultAsync(ct);
        await row.ReadAsync(ct);
        return new EntryView(placeId, from, to, state, row.GetInt32(0), open, bookedCode, name);
    }

    public async Task<bool> LeaveAsync(string token, DateTimeOffset now, CancellationToken ct) =>
        await retry.ExecuteAsync(async attempt =>
        {
            await using var connection = await OpenAsync(attempt);
            await using var leave = new SqlCommand(Sql.Leave, connection);
            leave.Parameters.Add("@token", SqlDbType.VarChar, TokenSize).Value = token;
            leave.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
            return (bool)(await leave.ExecuteScalarAsync(attempt))!;
        }, RetryOn, exhausted: null, ct);

    public async Task<ClaimAnswer> ClaimAsync(string token, string newCode, DateTimeOffset now, CancellationToken ct) =>
        await retry.ExecuteAsync(async attempt =>
        {
            await using var connection = await OpenAsync(attempt);
            await using var proc = Commands.Claim(token, newCode, now).On(connection);
            await proc.ExecuteNonQueryAsync(attempt);
            var status = (ClaimStatus)(int)proc.Out("@status")!;
            return status != ClaimStatus.Claimed
                ? new ClaimAnswer(status)
                : new ClaimAnswer(status, (string)proc.Out("@booked_code")!,
                    new SlotKey((int)proc.Out("@place_id")!, DateOnly.FromDateTime((DateTime)proc.Out("@day")!), (int)proc.Out("@start_minute")!),
                    (int?)proc.Out("@minutes") ?? 0);
        }, RetryOn, exhausted: null, ct);

    private static DateOnly Day(SqlDataReader row, int ordinal) => DateOnly.FromDateTime(row.GetDateTime(ordinal));

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}
