using Microsoft.Data.SqlClient;
using Slots.Admission;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The waiting room on SQL Server: the counters in memory-optimized tables beside the hot ones
/// (sql/050-053), a batch of joins, a counter step and a claim each one interpreted proc call
/// (sql/055-057), retried on In-Memory OLTP conflicts; the rest one short interpreted proc call each
/// (sql/117-124), reading the memory-optimized tables WITH (SNAPSHOT). Not executed here: no SQL
/// Server on the build machines; the procs are parse-checked by tests/Slots.SqlServer.Tests, and
/// every command matched to its proc's signature.
/// </summary>
public sealed class SqlServerAdmissionStore(SqlServerConnectionString connectionString, SqlServerRetryPolicy retry) : IAdmissionStore
{
    /// <summary>What the procs retry: conflicts, and a duplicate key from a racer that inserted first (the retry reads its row).</summary>
    private static readonly IReadOnlySet<int> RetryOn = new HashSet<int>([.. SqlServerErrors.Conflicts, .. SqlServerErrors.DuplicateKey]);

    public async Task<Opening> CreateAsync(NewOpening opening, DateTimeOffset now, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = SqlServerCommands.AdmissionCreate(opening, now).On(connection);
        var id = (long)(await command.ExecuteScalarAsync(ct))!;
        return (await FindAsync(id, ct))!;
    }

    public Task<bool> CloseAsync(long openingId, DateTimeOffset now, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var command = SqlServerCommands.AdmissionClose(openingId, now).On(connection);
            return (int)(await command.ExecuteScalarAsync(token))! == 1;
        }, SqlServerErrors.Conflicts, exhausted: null, ct).AsTask();

    public async Task<Opening?> FindAsync(long openingId, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = SqlServerCommands.AdmissionFind(openingId).On(connection);
        await using var row = await command.ExecuteReaderAsync(ct);
        return await row.ReadAsync(ct) ? AdmissionRows.Opening(row) : null;
    }

    public async Task<RoomRecords> LoadAsync(DateTimeOffset closedSince, DateTimeOffset wavesSince, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = SqlServerCommands.AdmissionLoad(closedSince, wavesSince).On(connection);
        var openings = new List<Opening>();
        var waves = new List<AdmissionWave>();
        await using var row = await command.ExecuteReaderAsync(ct);
        while (await row.ReadAsync(ct))
        {
            openings.Add(AdmissionRows.Opening(row));
        }
        await row.NextResultAsync(ct);
        while (await row.ReadAsync(ct))
        {
            waves.Add(AdmissionRows.Wave(row));
        }
        return new RoomRecords(openings, waves);
    }

    public Task<IReadOnlyList<JoinedTicket>?> JoinAsync(long openingId, IReadOnlyList<string> personKeys, DateTimeOffset now, byte[] shuffleKey, CancellationToken ct) =>
        retry.ExecuteAsync<IReadOnlyList<JoinedTicket>?>(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = SqlServerCommands.AdmissionJoin(openingId, personKeys, now, shuffleKey).On(connection);
            var tickets = new List<JoinedTicket>(personKeys.Count);
            await using var row = await proc.ExecuteReaderAsync(token);
            while (await row.ReadAsync(token))
            {
                tickets.Add(new JoinedTicket(row.GetInt64(0), row.GetBoolean(1)));
            }
            return tickets.Count == personKeys.Count ? tickets : null;
        }, RetryOn, exhausted: null, ct).AsTask();

    public Task<bool> SealAsync(long openingId, DateTimeOffset now, byte[] shuffleKey, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var command = SqlServerCommands.AdmissionSeal(openingId, now, shuffleKey).On(connection);
            return (int)(await command.ExecuteScalarAsync(token))! == 1;
        }, SqlServerErrors.Conflicts, exhausted: () => false, ct).AsTask();

    public async Task<long> FreeSeatsAsync(IReadOnlyList<int> placeIds, DateTimeOffset now, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = SqlServerCommands.AdmissionFreeSeats(placeIds, now).On(connection);
        return Math.Max(0, (long)(await command.ExecuteScalarAsync(ct))!);
    }

    public async Task<long> OutstandingAsync(long openingId, DateTimeOffset admittedSince, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = SqlServerCommands.AdmissionOutstanding(openingId, admittedSince).On(connection);
        return (long)(await command.ExecuteScalarAsync(ct))!;
    }

    public Task<bool> StepAsync(CounterStep step, CancellationToken ct) =>
        // A conflict means another node wrote the row first: the retry finds the version moved and writes nothing.
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = SqlServerCommands.AdmissionStep(step).On(connection);
            return (int)(await proc.ExecuteScalarAsync(token))! == 1;
        }, RetryOn, exhausted: () => false, ct).AsTask();

    public Task<bool> ClaimAsync(AdmissionClaim claim, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var proc = SqlServerCommands.AdmissionClaim(claim).On(connection);
            return (bool)(await proc.ExecuteScalarAsync(token))!;
        }, RetryOn, exhausted: null, ct).AsTask();

    public Task ReleaseAsync(AdmissionClaim claim, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var command = SqlServerCommands.AdmissionRelease(claim).On(connection);
            return await command.ExecuteNonQueryAsync(token);
        }, SqlServerErrors.Conflicts, exhausted: null, ct).AsTask();

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}
