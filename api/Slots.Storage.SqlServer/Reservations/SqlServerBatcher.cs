using Microsoft.Data.SqlClient;
using Microsoft.Extensions.Logging;
using Slots.Reservations;

namespace Slots.Storage.SqlServer;

/// <summary>
/// Group commit for SQL Server (<see cref="GroupCommit{TOperation, TAnswer}"/>): the
/// reservations waiting in this instance go as ONE call of dbo.reserve_batch (sql/014: one
/// natively compiled atomic block, one round trip, one log flush), and each is answered after the
/// commit with what dbo.reserve would have answered it alone. A lone reservation goes at once.
/// <list type="bullet">
/// <item>A batch is sorted by person, then code, the order the PostgreSQL batch takes. In-Memory
/// OLTP takes no locks, so this buys no deadlock freedom, only one order across batches.</item>
/// <item>A conflict (41302 and kin) or a racer's duplicate idempotency key rolls the whole block
/// back: the batch is retried once, then split in halves down to the failing reservation alone,
/// which gets the exception. <see cref="SqlServerReservationStore"/> then retries it as it retried
/// a single proc call, with back-off, and answers SlotFull once the attempts are spent.</item>
/// <item>Any other error (a broken connection, the memory quota) fails the batch it carried.</item>
/// </list>
/// Cancel and reschedule stay one proc call each: they are rare under a stampede, which is
/// reservations and their "slot full" answers, and dbo.reserve_batch takes reservations only.
/// </summary>
public sealed class SqlServerBatcher : IAsyncDisposable
{
    private static readonly IComparer<ReserveCommand> LockOrder = Comparer<ReserveCommand>.Create(static (a, b) =>
    {
        var byPerson = string.CompareOrdinal(a.PersonHash, b.PersonHash);
        return byPerson != 0 ? byPerson : string.CompareOrdinal(a.NewCode, b.NewCode);
    });

    private readonly SqlServerConnectionString _connectionString;
    private readonly GroupCommit<ReserveCommand, ReserveResult?> _commit;

    public SqlServerBatcher(SqlServerConnectionString connectionString, SqlServerBatchOptions options, ILogger<SqlServerBatcher> logger)
    {
        _connectionString = connectionString;
        _commit = new(options, LockOrder, batch => SendAsync(batch, CancellationToken.None), Conflict, logger);
    }

    /// <summary>Queues a reservation; the answer comes once its batch has committed (null: the key came with another request).</summary>
    public Task<ReserveResult?> ReserveAsync(ReserveCommand command) => _commit.CommitAsync(command);

    public ValueTask DisposeAsync() => _commit.DisposeAsync();

    /// <summary>
    /// One call of dbo.reserve_batch, no retry: the answers in the commands' order, a booking's
    /// with its slot's length (so its 201 reads nothing back). The proc takes one @now for the
    /// batch, the first command's: its commands arrived together.
    /// </summary>
    public async Task<ReserveResult?[]> SendAsync(IReadOnlyList<ReserveCommand> commands, CancellationToken ct)
    {
        await using var connection = new SqlConnection(_connectionString.Value);
        await connection.OpenAsync(ct);
        await using var proc = SqlServerCommands.ReserveBatch(commands).On(connection);
        var answers = new ReserveResult?[commands.Count];
        var answered = 0;
        await using var row = await proc.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            answers[row.GetInt32(0)] = SqlServerOutcomes.Reserve(row.GetInt32(1), row.IsDBNull(2) ? null : row.GetString(2), row.GetBoolean(3),
                row.IsDBNull(4) ? 0 : row.GetInt32(4));
            answered++;
        }
        // The rows may arrive before the atomic block has committed: read on to its end, so a
        // failure at commit (41301, 41325) is thrown here, before any caller is told Reserved.
        await row.NextResultAsync(ct);
        return answered == commands.Count
            ? answers
            : throw new InvalidOperationException($"dbo.reserve_batch answered {answered} rows for a batch of {commands.Count}.");
    }

    /// <summary>What the batch retries and splits on: what a single reserve retries.</summary>
    private static string? Conflict(Exception ex) =>
        SqlServerErrors.NumberOf(ex) is { } number && SqlServerReservationStore.ReserveRetryOn.Contains(number)
            ? number.ToString(System.Globalization.CultureInfo.InvariantCulture)
            : null;
}

/// <summary>Slots:Storage:SqlServer:Batch — how the API instance groups its reservations.</summary>
public sealed class SqlServerBatchOptions : GroupCommitOptions
{
    public const string Section = "Slots:Storage:SqlServer:Batch";
}
