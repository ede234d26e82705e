using System.Data.Common;
using System.Globalization;
using System.Text.Json;
using Npgsql;
using Slots.LoadTest.Data;

namespace Slots.LoadTest.Chaos;

/// <summary>Reads the final state from the stack's PostgreSQL, its SMS sink files and the job runs sampled during the run.</summary>
public static class FinalStateReader
{
    public static async Task<FinalState> ReadAsync(string connectionString, IEnumerable<string> sinkFiles, IReadOnlyList<JobRunSample> jobRuns, CancellationToken ct)
    {
        await using var db = new NpgsqlConnection(connectionString);
        await db.OpenAsync(ct);
        var hot = await ListAsync(db, "SELECT code, place_id, day, start_minute, seat_no, person_hash FROM hot_reservations",
            r => new HotReservation(r.GetString(0), Slot(r, 1), r.GetInt32(4), r.GetString(5)), ct);
        var seats = await ListAsync(db, "SELECT place_id, day, start_minute, seat_no, code FROM hot_seats WHERE code IS NOT NULL",
            r => new HeldSeat(Slot(r, 0), r.GetInt32(3), r.GetString(4)), ct);
        var capacity = await ListAsync(db, """
            SELECT s.place_id, s.day, s.start_minute, s.capacity FROM slots s
            WHERE EXISTS (SELECT 1 FROM hot_reservations r WHERE r.place_id = s.place_id AND r.day = s.day AND r.start_minute = s.start_minute)
            """, r => (Slot(r, 0), r.GetInt32(3)), ct);
        var disk = await ListAsync(db, "SELECT code, place_id, day, start_minute, seat_no, person_hash, cancelled_at IS NOT NULL FROM reservations",
            r => new DiskReservation(r.GetString(0), Slot(r, 1), r.GetInt32(4), r.GetString(5), r.GetBoolean(6)), ct);
        var persons = await ListAsync(db, "SELECT person_hash, code FROM active_persons", r => (r.GetString(0), r.GetString(1)), ct);
        // A new booking carries its key, its confirmation SMS and its pending change on its hot row.
        var keys = await ListAsync(db, "SELECT key, outcome, code FROM idempotency UNION ALL SELECT idem_key, 1, code FROM hot_reservations WHERE idem_key IS NOT NULL",
            r => new IdempotencyRow(r.GetString(0), r.GetInt32(1), r.IsDBNull(2) ? null : r.GetString(2)), ct);
        var outbox = await ListAsync(db, ReservationEvents.SmsMessages,
            r => new OutboxRow(r.GetInt64(0), r.GetInt32(1), r.GetString(2), r.GetBoolean(3)), ct);
        var sent = await ListAsync(db, "SELECT message_id FROM sms_sent WHERE status <> 3", r => r.GetInt64(0), ct);
        var hotDays = await ListAsync(db, "SELECT DISTINCT place_id, day FROM hot_seats", r => (r.GetInt32(0), Day(r.GetFieldValue<DateOnly>(1))), ct);
        var pending = await ListAsync(db, ReservationEvents.PendingChanges, r => r.GetInt64(0), ct);
        return new FinalState
        {
            Hot = hot,
            Seats = seats,
            Capacity = capacity.ToDictionary(c => c.Item1, c => c.Item2),
            Disk = disk,
            ActivePersons = persons.ToDictionary(p => p.Item1, p => p.Item2, StringComparer.Ordinal),
            Idempotency = keys,
            Outbox = outbox,
            SmsSent = sent.ToHashSet(),
            SinkLines = sinkFiles.SelectMany(SinkLines).ToList(),
            PendingChanges = pending[0],
            HotDays = hotDays.ToHashSet(),
            JobRuns = jobRuns,
        };
    }

    /// <summary>
    /// The lines of an SMS sink file (FileSmsSender: one JSON object per send with its message id and
    /// time); the sender is the file's name. A torn last line is skipped.
    /// </summary>
    public static IEnumerable<SinkLine> SinkLines(string path)
    {
        if (!File.Exists(path))
        {
            yield break;
        }
        var sender = Path.GetFileNameWithoutExtension(path);
        foreach (var line in File.ReadLines(path))
        {
            SinkLine? read = null;
            try
            {
                using var doc = JsonDocument.Parse(line);
                if (doc.RootElement.TryGetProperty("id", out var id) && doc.RootElement.TryGetProperty("at", out var at))
                {
                    read = new SinkLine(id.GetInt64(), sender, at.GetDateTimeOffset());
                }
            }
            catch (JsonException)
            {
                // A line cut short by a SIGKILL mid-write: the message id is then unreadable, and the check says which id is missing.
            }
            if (read is not null)
            {
                yield return read;
            }
        }
    }

    /// <summary>The current row of job_runs, one per job; sampled during the run, since each run overwrites its job's row.</summary>
    public static async Task<IReadOnlyList<JobRunSample>> SampleJobRunsAsync(NpgsqlConnection db, CancellationToken ct) =>
        await ListAsync(db, "SELECT job, started_at, duration_ms, instance, ok FROM job_runs",
            r => new JobRunSample(r.GetString(0), r.GetInt64(1), r.GetInt64(2), r.GetString(3), r.GetBoolean(4)), ct);

    private static SlotRef Slot(DbDataReader r, int first) =>
        new(r.GetInt32(first), Day(r.GetFieldValue<DateOnly>(first + 1)), r.GetInt32(first + 2));

    private static string Day(DateOnly d) => d.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);

    private static async Task<List<T>> ListAsync<T>(NpgsqlConnection db, string sql, Func<DbDataReader, T> read, CancellationToken ct)
    {
        await using var command = new NpgsqlCommand(sql, db);
        await using var reader = await command.ExecuteReaderAsync(ct);
        var list = new List<T>();
        while (await reader.ReadAsync(ct))
        {
            list.Add(read(reader));
        }
        return list;
    }
}
