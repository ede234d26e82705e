using Npgsql;
using NpgsqlTypes;
using Slots.Admission;

namespace Slots.Storage.Postgres;

/// <summary>
/// The waiting room on PostgreSQL: every operation one prepared statement (a batch of joins is
/// one call of waiting_room_join, schema script 020), safe under READ COMMITTED however many API
/// instances and scheduler nodes run.
/// </summary>
internal sealed class PostgresAdmissionStore(NpgsqlDataSource dataSource) : IAdmissionStore
{
    public async Task<Opening> CreateAsync(NewOpening opening, DateTimeOffset now, CancellationToken ct)
    {
        var id = (long)(await ScalarAsync("""
            INSERT INTO waiting_room_openings (scope, opens_at, admit_per_second, admission_seconds, abandon_allowance, state, created_at)
            VALUES ($1, $2, $3, $4, $5, 1, $6) RETURNING id
            """, ct, Text(opening.Scope.Text), Long(opening.OpensAt.ToUnixTimeSeconds()),
            new NpgsqlParameter { NpgsqlDbType = NpgsqlDbType.Double, Value = (object?)opening.AdmitPerSecond ?? DBNull.Value },
            Long((long)opening.AdmissionTime.TotalSeconds), Long(opening.AbandonAllowance), Long(now.ToUnixTimeSeconds())))!;
        return (await FindAsync(id, ct))!;
    }

    public async Task<bool> CloseAsync(long openingId, DateTimeOffset now, CancellationToken ct) =>
        await ExecuteAsync("UPDATE waiting_room_openings SET state = 2, closed_at = $2, version = version + 1 WHERE id = $1 AND state = 1",
            ct, Long(openingId), Long(now.ToUnixTimeSeconds())) == 1;

    public async Task<Opening?> FindAsync(long openingId, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var find = new NpgsqlCommand($"SELECT {AdmissionRows.OpeningColumns} FROM waiting_room_openings WHERE id = $1", connection);
        find.Parameters.Add(Long(openingId));
        await using var row = await find.ExecuteReaderAsync(ct);
        return await row.ReadAsync(ct) ? AdmissionRows.Opening(row) : null;
    }

    public async Task<RoomRecords> LoadAsync(DateTimeOffset closedSince, DateTimeOffset wavesSince, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        // Both reads in one round trip and one snapshot: the waves agree with the counters beside them.
        await using var tx = await connection.BeginTransactionAsync(System.Data.IsolationLevel.RepeatableRead, ct);
        await using var batch = new NpgsqlBatch(connection, tx)
        {
            BatchCommands =
            {
                new NpgsqlBatchCommand($"""
                    SELECT {AdmissionRows.OpeningColumns} FROM waiting_room_openings
                    WHERE state = 1 OR closed_at > $1 ORDER BY id
                    """) { Parameters = { Long(closedSince.ToUnixTimeSeconds()) } },
                new NpgsqlBatchCommand("""
                    SELECT w.opening_id, w.first_position, w.last_position, w.admitted_at
                    FROM waiting_room_waves w JOIN waiting_room_openings o ON o.id = w.opening_id
                    WHERE w.admitted_at > $1 AND (o.state = 1 OR o.closed_at > $2)
                    """) { Parameters = { Long(wavesSince.ToUnixTimeMilliseconds()), Long(closedSince.ToUnixTimeSeconds()) } },
            },
        };
        var openings = new List<Opening>();
        var waves = new List<AdmissionWave>();
        await using (var row = await batch.ExecuteReaderAsync(ct))
        {
            while (await row.ReadAsync(ct))
            {
                openings.Add(AdmissionRows.Opening(row));
            }
            await row.NextResultAsync(ct);
            while (await row.ReadAsync(ct))
            {
                waves.Add(AdmissionRows.Wave(row));
            }
        }
        await tx.CommitAsync(ct);
        return new RoomRecords(openings, waves);
    }

    public async Task<IReadOnlyList<JoinedTicket>?> JoinAsync(long openingId, IReadOnlyList<string> personKeys, DateTimeOffset now, byte[] shuffleKey, CancellationToken ct)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var join = new NpgsqlCommand("SELECT o_ticket, o_new FROM waiting_room_join($1, $2, $3, $4)", connection);
        join.Parameters.Add(Long(openingId));
        join.Parameters.Add(new NpgsqlParameter<string[]> { NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Text, TypedValue = [.. personKeys] });
        join.Parameters.Add(Long(now.ToUnixTimeSeconds()));
        join.Parameters.Add(new NpgsqlParameter<byte[]> { NpgsqlDbType = NpgsqlDbType.Bytea, TypedValue = shuffleKey });
        await join.PrepareAsync(ct);
        var tickets = new List<JoinedTicket>(personKeys.Count);
        await using (var row = await join.ExecuteReaderAsync(ct))
        {
            while (await row.ReadAsync(ct))
            {
                tickets.Add(new JoinedTicket(row.GetInt64(0), row.GetBoolean(1)));
            }
        }
        return tickets.Count == personKeys.Count ? tickets : null;
    }

    public async Task<bool> SealAsync(long openingId, DateTimeOffset now, byte[] shuffleKey, CancellationToken ct) =>
        await ExecuteAsync("""
            UPDATE waiting_room_openings SET pre_queue = joined, shuffle_key = $2, version = version + 1
            WHERE id = $1 AND pre_queue IS NULL AND opens_at <= $3 AND state = 1
            """, ct, Long(openingId), new NpgsqlParameter<byte[]> { NpgsqlDbType = NpgsqlDbType.Bytea, TypedValue = shuffleKey },
            Long(now.ToUnixTimeSeconds())) == 1;

    public async Task<long> FreeSeatsAsync(IReadOnlyList<int> placeIds, DateTimeOffset now, CancellationToken ct)
    {
        // Hot days: free seat rows. Cold days (from the place's horizon on): catalogue seats less active reservations.
        var free = (long)(await ScalarAsync("""
            SELECT
              (SELECT count(*) FROM hot_seats WHERE place_id = ANY($1) AND code IS NULL AND hold = 0 AND starts_at > $2)
            + (SELECT COALESCE(sum(s.capacity), 0) FROM slots s JOIN places p ON p.id = s.place_id
               WHERE s.place_id = ANY($1) AND s.day >= p.hot_until AND s.starts_at > $2)
            - (SELECT count(*) FROM reservations r JOIN places p ON p.id = r.place_id
               WHERE r.place_id = ANY($1) AND r.day >= p.hot_until AND r.cancelled_at IS NULL)
            """, ct, new NpgsqlParameter<int[]> { NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Integer, TypedValue = [.. placeIds] },
            Long(now.ToUnixTimeSeconds())))!;
        return Math.Max(0, free);
    }

    public async Task<long> OutstandingAsync(long openingId, DateTimeOffset admittedSince, CancellationToken ct) =>
        // Unexpired waves are the newest ones: positions from the oldest of them to the counter, less those a booking used.
        (long)(await ScalarAsync("""
            WITH live AS (
              SELECT min(first_position) AS lo, max(last_position) AS hi FROM waiting_room_waves
              WHERE opening_id = $1 AND admitted_at > $2)
            SELECT COALESCE((SELECT hi - lo + 1 FROM live), 0)
                 - (SELECT count(*) FROM waiting_room_claims WHERE opening_id = $1 AND position >= (SELECT lo FROM live))
            """, ct, Long(openingId), Long(admittedSince.ToUnixTimeMilliseconds())))!;

    public async Task<bool> StepAsync(CounterStep step, CancellationToken ct) =>
        (long)(await ScalarAsync("""
            WITH moved AS (
              UPDATE waiting_room_openings
              SET served = $4, seats_left = $5, credit_at_ms = $6, advanced_at = $7, version = version + 1
              WHERE id = $1 AND version = $2 AND served = $3 AND state = 1
              RETURNING id),
            wave AS (
              INSERT INTO waiting_room_waves (opening_id, first_position, last_position, admitted_at)
              SELECT id, $3 + 1, $4, $7 FROM moved WHERE $4 > $3
              RETURNING 1)
            SELECT count(*) FROM moved
            """, ct, Long(step.OpeningId), Long(step.SeenVersion), Long(step.SeenServed), Long(step.Served), Long(step.SeatsLeft),
            Long(step.CreditAtMs), Long(step.Now.ToUnixTimeMilliseconds())))! == 1;

    public async Task<bool> ClaimAsync(AdmissionClaim claim, CancellationToken ct)
    {
        // Ours when the row holds our key: just written, or written by an earlier try of the same booking.
        var holder = await ScalarAsync("""
            WITH claimed AS (
              INSERT INTO waiting_room_claims (opening_id, ticket, position, booking_key, claimed_at)
              VALUES ($1, $2, $3, $4, $5) ON CONFLICT (opening_id, ticket) DO NOTHING
              RETURNING booking_key)
            SELECT booking_key FROM claimed
            UNION ALL
            SELECT booking_key FROM waiting_room_claims WHERE opening_id = $1 AND ticket = $2
            LIMIT 1
            """, ct, Long(claim.OpeningId), Long(claim.Ticket), Long(claim.Position), Text(claim.Key), Long(claim.Now.ToUnixTimeSeconds()));
        return holder is string key && key == claim.Key;
    }

    public async Task ReleaseAsync(AdmissionClaim claim, CancellationToken ct) =>
        await ExecuteAsync("DELETE FROM waiting_room_claims WHERE opening_id = $1 AND ticket = $2 AND booking_key = $3",
            ct, Long(claim.OpeningId), Long(claim.Ticket), Text(claim.Key));

    private async Task<object?> ScalarAsync(string sql, CancellationToken ct, params NpgsqlParameter[] parameters)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var command = new NpgsqlCommand(sql, connection);
        command.Parameters.AddRange(parameters);
        await command.PrepareAsync(ct);
        var value = await command.ExecuteScalarAsync(ct);
        return value is DBNull ? null : value;
    }

    private async Task<int> ExecuteAsync(string sql, CancellationToken ct, params NpgsqlParameter[] parameters)
    {
        await using var connection = await dataSource.OpenConnectionAsync(ct);
        await using var command = new NpgsqlCommand(sql, connection);
        command.Parameters.AddRange(parameters);
        await command.PrepareAsync(ct);
        return await command.ExecuteNonQueryAsync(ct);
    }

    private static NpgsqlParameter<long> Long(long value) => new() { NpgsqlDbType = NpgsqlDbType.Bigint, TypedValue = value };

    private static NpgsqlParameter<string> Text(string value) => new() { NpgsqlDbType = NpgsqlDbType.Text, TypedValue = value };
}
