using Microsoft.Data.SqlClient;
using Microsoft.EntityFrameworkCore;
using Microsoft.EntityFrameworkCore.Storage;
using Microsoft.Extensions.DependencyInjection;
using Slots.Reservations;
using Slots.Storage.Ef;
using Slots.Storage.Ef.WaitingList;
using Slots.WaitingList;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The waiting list on SQL Server: the shared EF Core store on SQL Server's provider (the entries and
/// offers in the disk tables of sql/080-081, the line, the seats and every entry's state in the same
/// LINQ SQLite and PostgreSQL run and test), and procs beside the hot path's for the writes that meet
/// the hot seats: the join's widening of the days the line wants (dbo.waitlist_want) and the step's
/// narrowing (dbo.waitlist_mark_wanted), which the native dbo.cancel and dbo.reschedule read; an
/// offer that holds a seat (dbo.waitlist_offer); a seat going back to the line (dbo.waitlist_keep_for_line)
/// or to everyone (dbo.waitlist_release_seat); and the claim, one call of dbo.waitlist_claim, which
/// books the held seat through dbo.reserve. Each unit of work is one transaction, retried whole on
/// In-Memory OLTP conflicts. Not executed on the build machines (no SQL Server there): the procs are
/// parse-checked, and what EF Core sends checked against sql/, by tests/Slots.SqlServer.Tests.
/// </summary>
public sealed partial class SqlServerWaitingListStore(IServiceScopeFactory scopes, SqlServerConnectionString connectionString, SqlServerRetryPolicy retry)
    : EfWaitingListStore(scopes)
{
    /// <summary>
    /// What the writes retry: the door's set (conflicts; a duplicate key from a racer's join, which the
    /// retry reads as the entry on the list), and a deadlock victim, rolled back whole like the others.
    /// </summary>
    private static readonly IReadOnlySet<int> RetryOn = new HashSet<int>([.. SqlServerStaffStore.CheckInRetryOn, 1205]);

    public override async Task<ClaimAnswer> ClaimAsync(ClaimCommand command, CancellationToken ct) =>
        await retry.ExecuteAsync(async attempt =>
        {
            await using var connection = new SqlConnection(connectionString.Value);
            await connection.OpenAsync(attempt);
            await using var proc = Commands.Claim(command).On(connection);
            await proc.ExecuteNonQueryAsync(attempt);
            var status = (ClaimStatus)(int)proc.Out("@status")!;
            return status != ClaimStatus.Claimed
                ? new ClaimAnswer(status)
                : new ClaimAnswer(status, (string)proc.Out("@booked_code")!,
                    new SlotKey((int)proc.Out("@place_id")!, DateOnly.FromDateTime((DateTime)proc.Out("@day")!), (int)proc.Out("@start_minute")!),
                    (int?)proc.Out("@minutes") ?? 0);
        }, RetryOn, exhausted: null, ct);

    protected override async Task<T> AttemptAsync<T>(Func<CancellationToken, Task<T>> work, CancellationToken ct) =>
        await retry.ExecuteAsync(async attempt => await work(attempt), RetryOn, exhausted: null, ct);

    protected override bool IsUniqueViolation(IServiceProvider services, Exception exception) =>
        SqlServerErrors.NumberOf(exception) is { } number && SqlServerErrors.DuplicateKey.Contains(number);

    protected override async Task JoinedAsync(SlotsDbContext db, JoinCommand command, CancellationToken ct)
    {
        await using var proc = Commands.Want(command.PlaceId, command.From, command.To);
        await CallAsync(db, proc, ct);
    }

    protected override async Task LineReadAsync(SlotsDbContext db, int place, CancellationToken ct)
    {
        await using var proc = Commands.MarkWanted(place);
        await CallAsync(db, proc, ct);
    }

    protected override async Task KeepForLineAsync(SlotsDbContext db, short state, long at, CancellationToken ct)
    {
        await using var proc = Commands.KeepForLine(state, at);
        await CallAsync(db, proc, ct);
    }

    protected override async Task<bool> OfferAsync(SlotsDbContext db, int place, PlannedOffer offer, long at, CancellationToken ct)
    {
        await using var proc = Commands.Offer(place, offer, at);
        await CallAsync(db, proc, ct);
        return proc.Out("@offer_id") is long;
    }

    protected override async Task<int> ReleaseAsync(SlotsDbContext db, int place, OpenSeat seat, CancellationToken ct)
    {
        await using var proc = Commands.ReleaseSeat(place, seat);
        await CallAsync(db, proc, ct);
        return (int)proc.Out("@released")!;
    }

    /// <summary>Runs a proc on the context's connection, inside its transaction when one is open.</summary>
    private static async Task CallAsync(SlotsDbContext db, SqlCommand proc, CancellationToken ct)
    {
        await db.Database.OpenConnectionAsync(ct);
        try
        {
            proc.Connection = (SqlConnection)db.Database.GetDbConnection();
            proc.Transaction = (SqlTransaction?)db.Database.CurrentTransaction?.GetDbTransaction();
            await proc.ExecuteNonQueryAsync(ct);
        }
        finally
        {
            await db.Database.CloseConnectionAsync();
        }
    }
}
