using Microsoft.Data.Sqlite;
using Slots.Admission;

namespace Slots.Storage.Sqlite;

/// <summary>
/// The waiting room on SQLite: writes through the process's single writer (a batch of joins is
/// one operation in its group commit), reads on pooled connections.
/// </summary>
internal sealed class SqliteAdmissionStore(SqliteWriter writer, SqliteConnectionString connectionString) : IAdmissionStore
{
    public async Task<Opening> CreateAsync(NewOpening opening, DateTimeOffset now, CancellationToken ct)
    {
        var id = await writer.WriteAsync(hot => (long)Scalar(hot, """
            INSERT INTO waiting_room_openings (scope, opens_at, admit_per_second, admission_seconds, abandon_allowance, state, created_at)
            VALUES ($scope, $opens, $rate, $admission, $allowance, 1, $now)
            RETURNING id
            """, ("$scope", opening.Scope.Text), ("$opens", opening.OpensAt.ToUnixTimeSeconds()),
            ("$rate", (object?)opening.AdmitPerSecond ?? DBNull.Value), ("$admission", (long)opening.AdmissionTime.TotalSeconds),
            ("$allowance", opening.AbandonAllowance), ("$now", now.ToUnixTimeSeconds()))!, ct);
        return (await FindAsync(id, ct))!;
    }

    public Task<bool> CloseAsync(long openingId, DateTimeOffset now, CancellationToken ct) =>
        writer.WriteAsync(hot => Execute(hot, "UPDATE waiting_room_openings SET state = 2, closed_at = $now, version = version + 1 WHERE id = $id AND state = 1",
            ("$id", openingId), ("$now", now.ToUnixTimeSeconds())) == 1, ct);

    public async Task<Opening?> FindAsync(long openingId, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var find = connection.CreateCommand();
        find.CommandText = $"SELECT {AdmissionRows.OpeningColumns} FROM waiting_room_openings WHERE id = $id";
        find.Parameters.AddWithValue("$id", openingId);
        await using var row = await find.ExecuteReaderAsync(ct);
        return await row.ReadAsync(ct) ? AdmissionRows.Opening(row) : null;
    }

    public async Task<RoomRecords> LoadAsync(DateTimeOffset closedSince, DateTimeOffset wavesSince, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        // One snapshot for both reads: the waves agree with the counters they are read beside.
        await using var tx = connection.BeginTransaction(deferred: true);
        await using var openings = connection.CreateCommand();
        openings.Transaction = tx;
        openings.CommandText = $"""
            SELECT {AdmissionRows.OpeningColumns} FROM waiting_room_openings
            WHERE state = 1 OR closed_at > $closed ORDER BY id
            """;
        openings.Parameters.AddWithValue("$closed", closedSince.ToUnixTimeSeconds());
        var found = new List<Opening>();
        await using (var row = await openings.ExecuteReaderAsync(ct))
        {
            while (await row.ReadAsync(ct))
            {
                found.Add(AdmissionRows.Opening(row));
            }
        }
        await using var waves = connection.CreateCommand();
        waves.Transaction = tx;
        waves.CommandText = """
            SELECT w.opening_id, w.first_position, w.last_position, w.admitted_at
            FROM waiting_room_waves w JOIN waiting_room_openings o ON o.id = w.opening_id
            WHERE w.admitted_at > $since AND (o.state = 1 OR o.closed_at > $closed)
            """;
        waves.Parameters.AddWithValue("$since", wavesSince.ToUnixTimeMilliseconds());
        waves.Parameters.AddWithValue("$closed", closedSince.ToUnixTimeSeconds());
        var admitted = new List<AdmissionWave>();
        await using (var row = await waves.ExecuteReaderAsync(ct))
        {
            while (await row.ReadAsync(ct))
            {
                admitted.Add(AdmissionRows.Wave(row));
            }
        }
        return new RoomRecords(found, admitted);
    }

    public Task<IReadOnlyList<JoinedTicket>?> JoinAsync(long openingId, IReadOnlyList<string> personKeys, DateTimeOffset now, byte[] shuffleKey, CancellationToken ct) =>
        writer.WriteAsync<IReadOnlyList<JoinedTicket>?>(hot =>
        {
            Seal(hot, openingId, now, shuffleKey);
            if (Scalar(hot, "SELECT state FROM waiting_room_openings WHERE id = $id", ("$id", openingId)) is not 1L)
            {
                return null;
            }
            var joined = (long)Scalar(hot, "SELECT joined FROM waiting_room_openings WHERE id = $id", ("$id", openingId))!;
            var tickets = new List<JoinedTicket>(personKeys.Count);
            foreach (var key in personKeys)
            {
                if (Scalar(hot, "SELECT ticket FROM waiting_room_joins WHERE opening_id = $id AND person_hash = $person",
                    ("$id", openingId), ("$person", key)) is long existing)
                {
                    tickets.Add(new JoinedTicket(existing, New: false));
                    continue;
                }
                joined++;
                Execute(hot, "INSERT INTO waiting_room_joins (opening_id, person_hash, ticket, joined_at) VALUES ($id, $person, $ticket, $now)",
                    ("$id", openingId), ("$person", key), ("$ticket", joined), ("$now", now.ToUnixTimeSeconds()));
                tickets.Add(new JoinedTicket(joined, New: true));
            }
            Execute(hot, "UPDATE waiting_room_openings SET joined = $joined WHERE id = $id", ("$id", openingId), ("$joined", joined));
            return tickets;
        }, ct);

    public Task<bool> SealAsync(long openingId, DateTimeOffset now, byte[] shuffleKey, CancellationToken ct) =>
        writer.WriteAsync(hot => Seal(hot, openingId, now, shuffleKey), ct);

    public async Task<long> FreeSeatsAsync(IReadOnlyList<int> placeIds, DateTimeOffset now, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var count = connection.CreateCommand();
        // Hot days: free seat rows. Cold days (from the place's horizon on): catalogue seats less active reservations.
        count.CommandText = """
            SELECT
              (SELECT COUNT(*) FROM hot_seats
               WHERE place_id IN (SELECT value FROM json_each($places)) AND code IS NULL AND hold = 0 AND starts_at > $now)
            + (SELECT COALESCE(SUM(s.capacity), 0) FROM slots s JOIN places p ON p.id = s.place_id
               WHERE s.place_id IN (SELECT value FROM json_each($places)) AND s.day >= p.hot_until AND s.starts_at > $now)
            - (SELECT COUNT(*) FROM reservations r JOIN places p ON p.id = r.place_id
               WHERE r.place_id IN (SELECT value FROM json_each($places)) AND r.day >= p.hot_until AND r.cancelled_at IS NULL)
            """;
        count.Parameters.AddWithValue("$places", "[" + string.Join(',', placeIds) + "]");
        count.Parameters.AddWithValue("$now", now.ToUnixTimeSeconds());
        return Math.Max(0, (long)(await count.ExecuteScalarAsync(ct))!);
    }

    public async Task<long> OutstandingAsync(long openingId, DateTimeOffset admittedSince, CancellationToken ct)
    {
        await using var connection = await OpenAsync(ct);
        await using var count = connection.CreateCommand();
        // Unexpired waves are the newest ones: positions from the oldest of them to the counter, less those a booking used.
        count.CommandText = """
            WITH live AS (
              SELECT MIN(first_position) AS lo, MAX(last_position) AS hi FROM waiting_room_waves
              WHERE opening_id = $id AND admitted_at > $since)
            SELECT COALESCE((SELECT hi - lo + 1 FROM live), 0)
                 - (SELECT COUNT(*) FROM waiting_room_claims WHERE opening_id = $id AND position >= (SELECT lo FROM live))
            """;
        count.Parameters.AddWithValue("$id", openingId);
        count.Parameters.AddWithValue("$since", admittedSince.ToUnixTimeMilliseconds());
        return (long)(await count.ExecuteScalarAsync(ct))!;
    }

    public Task<bool> StepAsync(CounterStep step, CancellationToken ct) =>
        writer.WriteAsync(hot =>
        {
            var moved = Execute(hot, """
                UPDATE waiting_room_openings
                SET served = $served, seats_left = $seats, credit_at_ms = $credit, advanced_at = $now, version = version + 1
                WHERE id = $id AND version = $version AND served = $seen AND state = 1
                """, ("$id", step.OpeningId), ("$version", step.SeenVersion), ("$seen", step.SeenServed), ("$served", step.Served),
                ("$seats", step.SeatsLeft), ("$credit", step.CreditAtMs), ("$now", step.Now.ToUnixTimeMilliseconds())) == 1;
            if (moved && step.Served > step.SeenServed)
            {
                Execute(hot, "INSERT INTO waiting_room_waves (opening_id, first_position, last_position, admitted_at) VALUES ($id, $first, $last, $at)",
                    ("$id", step.OpeningId), ("$first", step.SeenServed + 1), ("$last", step.Served), ("$at", step.Now.ToUnixTimeMilliseconds()));
            }
            return moved;
        }, ct);

    public Task<bool> ClaimAsync(AdmissionClaim claim, CancellationToken ct) =>
        writer.WriteAsync(hot =>
        {
            Execute(hot, """
                INSERT INTO waiting_room_claims (opening_id, ticket, position, booking_key, claimed_at)
                VALUES ($id, $ticket, $position, $key, $now) ON CONFLICT (opening_id, ticket) DO NOTHING
                """, ("$id", claim.OpeningId), ("$ticket", claim.Ticket), ("$position", claim.Position), ("$key", claim.Key),
                ("$now", claim.Now.ToUnixTimeSeconds()));
            // Ours when the row holds our key: just written, or written by an earlier try of the same booking.
            return Scalar(hot, "SELECT booking_key FROM waiting_room_claims WHERE opening_id = $id AND ticket = $ticket",
                ("$id", claim.OpeningId), ("$ticket", claim.Ticket)) is string key && key == claim.Key;
        }, ct);

    public Task ReleaseAsync(AdmissionClaim claim, CancellationToken ct) =>
        writer.WriteAsync(hot => Execute(hot, "DELETE FROM waiting_room_claims WHERE opening_id = $id AND ticket = $ticket AND booking_key = $key",
            ("$id", claim.OpeningId), ("$ticket", claim.Ticket), ("$key", claim.Key)), ct);

    /// <summary>Seals the pre-queue when the opening time has come and it is not sealed yet; true when this call sealed it.</summary>
    private static bool Seal(SqliteHotPath hot, long openingId, DateTimeOffset now, byte[] shuffleKey) =>
        Execute(hot, """
            UPDATE waiting_room_openings SET pre_queue = joined, shuffle_key = $key, version = version + 1
            WHERE id = $id AND pre_queue IS NULL AND opens_at <= $now AND state = 1
            """, ("$id", openingId), ("$key", shuffleKey), ("$now", now.ToUnixTimeSeconds())) == 1;

    private static int Execute(SqliteHotPath hot, string sql, params ReadOnlySpan<(string Name, object Value)> parameters)
    {
        using var command = Command(hot, sql, parameters);
        return command.ExecuteNonQuery();
    }

    private static object? Scalar(SqliteHotPath hot, string sql, params ReadOnlySpan<(string Name, object Value)> parameters)
    {
        using var command = Command(hot, sql, parameters);
        return command.ExecuteScalar();
    }

    private static SqliteCommand Command(SqliteHotPath hot, string sql, ReadOnlySpan<(string Name, object Value)> parameters)
    {
        var command = hot.Connection.CreateCommand();
        command.Transaction = hot.Transaction;
        command.CommandText = sql;
        foreach (var (name, value) in parameters)
        {
            command.Parameters.AddWithValue(name, value);
        }
        return command;
    }

    private async Task<SqliteConnection> OpenAsync(CancellationToken ct)
    {
        var connection = new SqliteConnection(connectionString.Value);
        await connection.OpenAsync(ct);
        return connection;
    }
}
