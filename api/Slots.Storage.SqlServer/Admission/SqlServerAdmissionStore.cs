using System.Data;
using Microsoft.Data.SqlClient;
using Slots.Admission;

namespace Slots.Storage.SqlServer;

/// <summary>
/// The waiting room on SQL Server: the counters in memory-optimized tables beside the hot ones
/// (sql/050-053), a batch of joins, a counter step and a claim each one interpreted proc call
/// (sql/055-057), retried on In-Memory OLTP conflicts; the rest short parameterised statements,
/// reading the memory-optimized tables WITH (SNAPSHOT). Not executed here: no SQL Server on the
/// build machines; the procs and statements are parse-checked by tests/Slots.SqlServer.Tests.
/// </summary>
public sealed class SqlServerAdmissionStore(SqlServerConnectionString connectionString, SqlServerRetryPolicy retry) : IAdmissionStore
{
    /// <summary>What the procs retry: conflicts, and a duplicate key from a racer that inserted first (the retry reads its row).</summary>
    private static readonly IReadOnlySet<int> RetryOn = new HashSet<int>([.. SqlServerErrors.Conflicts, .. SqlServerErrors.DuplicateKey]);

    /// <summary>The statements this store sends, public so the tests parse each one.</summary>
    public static class Sql
    {
        public const string Create = """
            INSERT dbo.waiting_room_openings WITH (SNAPSHOT) (scope, opens_at, admit_per_second, admission_seconds, abandon_allowance, state, created_at)
            VALUES (@scope, @opens_at, @rate, @admission, @allowance, 1, @now);
            SELECT CAST(SCOPE_IDENTITY() AS bigint);
            """;

        public const string Close = """
            UPDATE dbo.waiting_room_openings WITH (SNAPSHOT) SET state = 2, closed_at = @now, version = version + 1
            WHERE id = @id AND state = 1;
            """;

        public const string Find = "SELECT " + AdmissionRows.OpeningColumns + " FROM dbo.waiting_room_openings WITH (SNAPSHOT) WHERE id = @id;";

        /// <summary>The openings and their recent waves, in one batch.</summary>
        public const string Load = "SELECT " + AdmissionRows.OpeningColumns + """
             FROM dbo.waiting_room_openings WITH (SNAPSHOT) WHERE state = 1 OR closed_at > @closed ORDER BY id;
            SELECT w.opening_id, w.first_position, w.last_position, w.admitted_at
            FROM dbo.waiting_room_waves w WITH (SNAPSHOT)
            JOIN dbo.waiting_room_openings o WITH (SNAPSHOT) ON o.id = w.opening_id
            WHERE w.admitted_at > @since AND (o.state = 1 OR o.closed_at > @closed);
            """;

        public const string Seal = """
            UPDATE dbo.waiting_room_openings WITH (SNAPSHOT) SET pre_queue = joined, shuffle_key = @key, version = version + 1
            WHERE id = @id AND pre_queue IS NULL AND opens_at <= @now AND state = 1;
            """;

        /// <summary>Hot days: free seat rows; cold days (from the place's horizon on): catalogue seats less active reservations.</summary>
        public const string FreeSeats = """
            SELECT
              (SELECT COUNT_BIG(*) FROM dbo.hot_seats WITH (SNAPSHOT)
               WHERE place_id IN (SELECT CAST(value AS int) FROM OPENJSON(@places)) AND code IS NULL AND hold = 0 AND starts_at > @now)
            + (SELECT COALESCE(SUM(CAST(s.capacity AS bigint)), 0) FROM dbo.slots s JOIN dbo.places p ON p.id = s.place_id
               WHERE s.place_id IN (SELECT CAST(value AS int) FROM OPENJSON(@places)) AND s.day >= p.hot_until AND s.starts_at > @now)
            - (SELECT COUNT_BIG(*) FROM dbo.reservations r JOIN dbo.places p ON p.id = r.place_id
               WHERE r.place_id IN (SELECT CAST(value AS int) FROM OPENJSON(@places)) AND r.day >= p.hot_until AND r.cancelled_at IS NULL);
            """;

        /// <summary>Unexpired waves are the newest: positions from the oldest of them to the counter, less those a booking used.</summary>
        public const string Outstanding = """
            DECLARE @lo bigint, @hi bigint;
            SELECT @lo = MIN(first_position), @hi = MAX(last_position)
            FROM dbo.waiting_room_waves WITH (SNAPSHOT) WHERE opening_id = @id AND admitted_at > @since;
            SELECT COALESCE(@hi - @lo + 1, 0)
                 - (SELECT COUNT_BIG(*) FROM dbo.waiting_room_claims WITH (SNAPSHOT) WHERE opening_id = @id AND position >= @lo);
            """;

        public const string Release = """
            DELETE dbo.waiting_room_claims WITH (SNAPSHOT) WHERE opening_id = @id AND ticket = @ticket AND booking_key = @key;
            """;
    }

    public async Task<Opening> CreateAsync(NewOpening opening, DateTimeOffset now, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = new SqlCommand(Sql.Create, connection);
        command.Parameters.Add("@scope", SqlDbType.NVarChar, -1).Value = opening.Scope.Text;
        command.Parameters.Add("@opens_at", SqlDbType.BigInt).Value = opening.OpensAt.ToUnixTimeSeconds();
        command.Parameters.Add("@rate", SqlDbType.Float).Value = (object?)opening.AdmitPerSecond ?? DBNull.Value;
        command.Parameters.Add("@admission", SqlDbType.BigInt).Value = (long)opening.AdmissionTime.TotalSeconds;
        command.Parameters.Add("@allowance", SqlDbType.BigInt).Value = (long)opening.AbandonAllowance;
        command.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
        var id = (long)(await command.ExecuteScalarAsync(ct))!;
        return (await FindAsync(id, ct))!;
    }

    public Task<bool> CloseAsync(long openingId, DateTimeOffset now, CancellationToken ct) =>
        retry.ExecuteAsync(async token =>
        {
            await using var connection = await OpenAsync(token);
            await using var command = new SqlCommand(Sql.Close, connection);
            command.Parameters.Add("@id", SqlDbType.BigInt).Value = openingId;
            command.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
            return await command.ExecuteNonQueryAsync(token) == 1;
        }, SqlServerErrors.Conflicts, exhausted: null, ct).AsTask();

    public async Task<Opening?> FindAsync(long openingId, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = new SqlCommand(Sql.Find, connection);
        command.Parameters.Add("@id", SqlDbType.BigInt).Value = openingId;
        await using var row = await command.ExecuteReaderAsync(ct);
        return await row.ReadAsync(ct) ? AdmissionRows.Opening(row) : null;
    }

    public async Task<RoomRecords> LoadAsync(DateTimeOffset closedSince, DateTimeOffset wavesSince, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = new SqlCommand(Sql.Load, connection);
        command.Parameters.Add("@closed", SqlDbType.BigInt).Value = closedSince.ToUnixTimeSeconds();
        command.Parameters.Add("@since", SqlDbType.BigInt).Value = wavesSince.ToUnixTimeMilliseconds();
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
            await using var command = new SqlCommand(Sql.Seal, connection);
            command.Parameters.Add("@id", SqlDbType.BigInt).Value = openingId;
            command.Parameters.Add("@key", SqlDbType.VarBinary, SqlServerCommands.ShuffleKeySize).Value = shuffleKey;
            command.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
            return await command.ExecuteNonQueryAsync(token) == 1;
        }, SqlServerErrors.Conflicts, exhausted: () => false, ct).AsTask();

    public async Task<long> FreeSeatsAsync(IReadOnlyList<int> placeIds, DateTimeOffset now, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = new SqlCommand(Sql.FreeSeats, connection);
        command.Parameters.Add("@places", SqlDbType.NVarChar, -1).Value = "[" + string.Join(',', placeIds) + "]";
        command.Parameters.Add("@now", SqlDbType.BigInt).Value = now.ToUnixTimeSeconds();
        return Math.Max(0, (long)(await command.ExecuteScalarAsync(ct))!);
    }

    public async Task<long> OutstandingAsync(long openingId, DateTimeOffset admittedSince, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var command = new SqlCommand(Sql.Outstanding, connection);
        command.Parameters.Add("@id", SqlDbType.BigInt).Value = openingId;
        command.Parameters.Add("@since", SqlDbType.BigInt).Value = admittedSince.ToUnixTimeMilliseconds();
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
            await using var command = new SqlCommand(Sql.Release, connection);
            command.Parameters.Add("@id", SqlDbType.BigInt).Value = claim.OpeningId;
            command.Parameters.Add("@ticket", SqlDbType.BigInt).Value = claim.Ticket;
            command.Parameters.Add("@key", SqlDbType.VarChar, SqlServerCommands.BookingKeySize).Value = claim.Key;
            return await command.ExecuteNonQueryAsync(token);
        }, SqlServerErrors.Conflicts, exhausted: null, ct).AsTask();

    private async Task<SqlConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqlConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}
