using System.Data.Common;
using System.Globalization;
using System.Text;
using Slots.LoadTest.Simulation;

namespace Slots.LoadTest.Data;

/// <summary>What the database holds after a run, checked against what the users were told.</summary>
public sealed record AuditResult(
    long HotReservations,
    long SharedSeats,
    long SeatMismatches,
    long OverbookedSlots,
    long SharedSeatsOnDisk,
    long Confirmations,
    long MissingConfirmations,
    long MisplacedConfirmations,
    long PersonsWithTwoActive,
    long ReservedOutboxRows,
    long ConfirmationsWithoutOutbox,
    long DuplicateOutboxRows,
    long ConfirmationsWithoutChange,
    long Pairs = 0,
    long HalfPairs = 0,
    long UnpairedBookings = 0)
{
    /// <summary>
    /// No seat given twice, no confirmation lost or misplaced, one reservation (or pair) per person, one SMS
    /// per booking; a two-dose service's bookings each a whole pair.
    /// </summary>
    public bool Passed =>
        SharedSeats == 0 && SeatMismatches == 0 && OverbookedSlots == 0 && SharedSeatsOnDisk == 0 &&
        MissingConfirmations == 0 && MisplacedConfirmations == 0 && PersonsWithTwoActive == 0 &&
        ConfirmationsWithoutOutbox == 0 && DuplicateOutboxRows == 0 && ConfirmationsWithoutChange == 0 &&
        HalfPairs == 0 && UnpairedBookings == 0;
}

public static class Audit
{
    private const int Chunk = 500;

    public static async Task<AuditResult> RunAsync(Provider provider, string connectionString, IReadOnlyCollection<Confirmation> confirmations, CancellationToken ct)
    {
        await using var db = await Database.OpenAsync(provider, connectionString, ct);
        var hot = await Database.ScalarAsync(db, "SELECT count(*) FROM hot_reservations", ct);
        // Two active reservations on one seat.
        var shared = await Database.ScalarAsync(db, """
            SELECT count(*) FROM (SELECT 1 FROM hot_reservations
                                  GROUP BY place_id, day, start_minute, seat_no HAVING count(*) > 1) x
            """, ct);
        // A reservation whose seat shows free, or another code: the seat could be given again.
        var mismatches = await Database.ScalarAsync(db, """
            SELECT count(*) FROM hot_reservations r
            LEFT JOIN hot_seats s ON s.place_id = r.place_id AND s.day = r.day AND s.start_minute = r.start_minute AND s.seat_no = r.seat_no
            WHERE s.code IS NULL OR s.code <> r.code
            """, ct);
        var overbooked = await Database.ScalarAsync(db, """
            SELECT count(*) FROM (SELECT place_id, day, start_minute, count(*) AS n FROM hot_reservations
                                  GROUP BY place_id, day, start_minute) x
            JOIN slots s ON s.place_id = x.place_id AND s.day = x.day AND s.start_minute = x.start_minute
            WHERE x.n > s.capacity
            """, ct);
        var sharedOnDisk = await Database.ScalarAsync(db, """
            SELECT count(*) FROM (SELECT 1 FROM reservations WHERE cancelled_at IS NULL
                                  GROUP BY place_id, day, start_minute, seat_no HAVING count(*) > 1) x
            """, ct);
        // A pair's second dose is not a second booking: the person holds one pair.
        var twice = await Database.ScalarAsync(db, """
            SELECT count(*) FROM (SELECT 1 FROM hot_reservations
                                  WHERE code NOT IN (SELECT second_code FROM dose_pairs)
                                  GROUP BY person_hash, service_id HAVING count(*) > 1) x
            """, ct);
        var pairs = await Database.ScalarAsync(db, "SELECT count(*) FROM dose_pairs", ct);
        // A link whose one half is active and the other not: half a pair.
        var halfPairs = await Database.ScalarAsync(db, $"""
            SELECT count(*) FROM dose_pairs d
            WHERE ({Active("d.first_code")}) <> ({Active("d.second_code")})
            """, ct);
        // A booking of a two-dose service that is neither half of a pair.
        var unpaired = await Database.ScalarAsync(db, """
            SELECT count(*) FROM (SELECT code, service_id FROM hot_reservations
                                  UNION ALL SELECT code, service_id FROM reservations WHERE cancelled_at IS NULL) r
            JOIN services s ON s.id = r.service_id AND s.dose_min_days IS NOT NULL
            WHERE r.code NOT IN (SELECT first_code FROM dose_pairs) AND r.code NOT IN (SELECT second_code FROM dose_pairs)
            """, ct);
        var confirmationSms = ConfirmationSmsCodes();
        var outbox = await Database.ScalarAsync(db, $"SELECT count(*) FROM ({confirmationSms}) x", ct);
        var duplicateOutbox = await Database.ScalarAsync(db, $"""
            SELECT count(*) FROM (SELECT 1 FROM ({confirmationSms}) x GROUP BY code HAVING count(*) > 1) y
            """, ct);

        var found = await FindAsync(db, confirmations.Select(c => c.Code).ToList(), ct);
        long missing = 0, misplaced = 0, withoutOutbox = 0, withoutChange = 0;
        foreach (var c in confirmations)
        {
            if (!found.TryGetValue(c.Code, out var row))
            {
                missing++;
                continue;
            }
            if (row.PlaceId != c.PlaceId || row.Day != c.Day || row.Time != c.Time)
            {
                misplaced++;
            }
            if (!row.Outbox)
            {
                withoutOutbox++;
            }
            if (!row.Change)
            {
                withoutChange++;
            }
        }
        return new AuditResult(hot, shared, mismatches, overbooked, sharedOnDisk, confirmations.Count, missing, misplaced, twice,
            outbox, withoutOutbox, duplicateOutbox, withoutChange, pairs, halfPairs, unpaired);
    }

    /// <summary>Whether the code's reservation is active, hot or on disk (a SQL expression, 1 or 0 on both engines).</summary>
    private static string Active(string code) =>
        $"CASE WHEN EXISTS (SELECT 1 FROM hot_reservations h WHERE h.code = {code}) "
        + $"OR EXISTS (SELECT 1 FROM reservations r WHERE r.code = {code} AND r.cancelled_at IS NULL) THEN 1 ELSE 0 END";

    /// <summary>
    /// The code of every booking confirmation SMS, one row per message. A new booking's confirmation rides on its hot
    /// reservation row (event_id) until the row goes, when it moves to the outbox (PostgreSQL and SQLite alike).
    /// </summary>
    private static string ConfirmationSmsCodes() => $"SELECT code FROM ({ReservationEvents.SmsMessages}) m WHERE kind = 1";

    private sealed record Found(int PlaceId, string Day, string Time, bool Outbox, bool Change);

    /// <summary>
    /// Each confirmed code where it is now (hot or, once flushed, on disk), with whether its SMS and
    /// change record exist. Outbox and change codes are read once into sets (neither table is
    /// indexed by code; a lookup per confirmation would scan them once per code).
    /// </summary>
    private static async Task<Dictionary<string, Found>> FindAsync(DbConnection db, List<string> codes, CancellationToken ct)
    {
        var outbox = await CodesAsync(db, ConfirmationSmsCodes(), ct);
        var changed = await CodesAsync(db,
            "SELECT code FROM changes WHERE kind = 1 UNION SELECT code FROM reservations UNION SELECT code FROM hot_reservations WHERE flush_pending", ct);
        var found = new Dictionary<string, Found>(StringComparer.Ordinal);
        for (var offset = 0; offset < codes.Count; offset += Chunk)
        {
            var chunk = codes.Skip(offset).Take(Chunk).ToArray();
            var list = new StringBuilder();
            for (var i = 0; i < chunk.Length; i++)
            {
                list.Append(i == 0 ? "" : ", ").Append("@p").Append(i);
            }
            var sql = $"""
                SELECT code, place_id, day, start_minute FROM hot_reservations WHERE code IN ({list})
                UNION ALL
                SELECT code, place_id, day, start_minute FROM reservations WHERE cancelled_at IS NULL AND code IN ({list})
                """;
            await using var command = Database.Command(db, sql, chunk);
            await using var reader = await command.ExecuteReaderAsync(ct);
            while (await reader.ReadAsync(ct))
            {
                var code = reader.GetString(0);
                var minute = Convert.ToInt32(reader.GetValue(3), CultureInfo.InvariantCulture);
                found[code] = new Found(
                    Convert.ToInt32(reader.GetValue(1), CultureInfo.InvariantCulture),
                    DayText(reader.GetValue(2)),
                    $"{minute / 60:00}:{minute % 60:00}",
                    outbox.Contains(code),
                    changed.Contains(code));
            }
        }
        return found;
    }

    private static async Task<HashSet<string>> CodesAsync(DbConnection db, string sql, CancellationToken ct)
    {
        var codes = new HashSet<string>(StringComparer.Ordinal);
        await using var command = Database.Command(db, sql, []);
        await using var reader = await command.ExecuteReaderAsync(ct);
        while (await reader.ReadAsync(ct))
        {
            codes.Add(reader.GetString(0));
        }
        return codes;
    }

    private static string DayText(object value) => value switch
    {
        DateOnly d => d.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture),
        DateTime t => t.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture),
        _ => Convert.ToString(value, CultureInfo.InvariantCulture) ?? "",
    };
}
