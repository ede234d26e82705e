using System.Data.Common;
using System.Globalization;
using System.Net.Http.Json;
using System.Text.Json.Nodes;
using Slots.LoadTest.Data;

namespace Slots.LoadTest.Bench;

/// <summary>
/// The reminder run's day: places made through the admin API (on PostgreSQL the benchmark's seeded 1,000), a day of
/// bookings written straight into the hot tables (as the hot path would leave them; booking 100,000 seats through the
/// API would take longer than the run), and the counts read from the instance's database between windows.
/// </summary>
internal static class RemindersSetup
{
    /// <summary>A place in Košice; its id.</summary>
    public static async Task<int> PlaceAsync(HttpClient admin, string name, CancellationToken ct)
    {
        var body = new JsonObject
        {
            ["name"] = name,
            ["address"] = "Hlavná 1, 040 01 Košice",
            ["region"] = "Košický kraj",
            ["timeZone"] = "Europe/Bratislava",
        };
        using var answer = await admin.PostAsJsonAsync("/api/admin/places", body, ct);
        answer.EnsureSuccessStatusCode();
        var place = await answer.Content.ReadFromJsonAsync<JsonObject>(ct);
        return place?["id"]?.GetValue<int>() ?? throw new InvalidOperationException("The new place's answer had no id.");
    }

    /// <summary>120 slots of five minutes, 08:00 to 17:55, of <paramref name="capacity"/> seats each, on one day.</summary>
    public static async Task SlotsAsync(HttpClient admin, int place, DateOnly day, int capacity, CancellationToken ct)
    {
        var text = day.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);
        var body = new JsonObject
        {
            ["placeIds"] = new JsonArray(place),
            ["from"] = text,
            ["to"] = text,
            ["template"] = new JsonObject { ["firstStart"] = "08:00", ["lastStart"] = "17:55", ["intervalMinutes"] = 5, ["lengthMinutes"] = 5 },
            ["capacity"] = capacity,
        };
        using var answer = await admin.PostAsJsonAsync("/api/admin/slots/generate", body, ct);
        answer.EnsureSuccessStatusCode();
    }

    /// <summary>Books every free seat of the place's day, each for a made-up person; the bookings written.</summary>
    public static async Task<int> BookEverySeatAsync(string connection, int place, DateOnly day, CancellationToken ct)
    {
        await using var db = await Database.OpenAsync(Provider.Sqlite, connection, ct);
        var dayText = day.ToString("yyyy-MM-dd", CultureInfo.InvariantCulture);
        var seats = new List<(long Minute, long Seat, long Minutes, long StartsAt)>();
        await using (var read = Database.Command(db, "SELECT start_minute, seat_no, minutes, starts_at FROM hot_seats WHERE place_id = @p0 AND day = @p1 AND code IS NULL", [place, dayText]))
        await using (var rows = await read.ExecuteReaderAsync(ct))
        {
            while (await rows.ReadAsync(ct))
            {
                seats.Add((rows.GetInt64(0), rows.GetInt64(1), rows.GetInt64(2), rows.GetInt64(3)));
            }
        }
        var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        await using var tx = await db.BeginTransactionAsync(ct);
        await using var seat = Database.Command(db, "UPDATE hot_seats SET code = @p0 WHERE place_id = @p1 AND day = @p2 AND start_minute = @p3 AND seat_no = @p4",
            ["", place, dayText, 0L, 0L]);
        await using var booking = Database.Command(db, """
            INSERT INTO hot_reservations (code, place_id, day, start_minute, seat_no, minutes, starts_at, person_hash, phone, name, language, created_at)
            VALUES (@p0, @p1, @p2, @p3, @p4, @p5, @p6, @p7, @p8, @p9, @p10, @p11)
            """, ["", place, dayText, 0L, 0L, 0L, 0L, "", "", "", "", now]);
        seat.Transaction = tx;
        booking.Transaction = tx;
        for (var i = 0; i < seats.Count; i++)
        {
            var (minute, seatNo, minutes, startsAt) = seats[i];
            var code = string.Create(CultureInfo.InvariantCulture, $"R{i:D9}");
            Set(seat, code, minute, seatNo);
            await seat.ExecuteNonQueryAsync(ct);
            Set(booking, code, minute, seatNo);
            booking.Parameters[5].Value = minutes;
            booking.Parameters[6].Value = startsAt;
            booking.Parameters[7].Value = $"seed-person-{i}";
            booking.Parameters[8].Value = string.Create(CultureInfo.InvariantCulture, $"+42195{i % 10_000_000:D7}");
            booking.Parameters[9].Value = $"Osoba {i}";
            booking.Parameters[10].Value = i % 2 == 1 ? "sk" : "en";
            await booking.ExecuteNonQueryAsync(ct);
        }
        await tx.CommitAsync(ct);
        return seats.Count;
    }

    /// <summary>
    /// On the benchmark's seeded PostgreSQL (1,000 places × 34 times × 5 seats a day): seats 1 to 3 of every time of the
    /// day booked for made-up people, 102,000 bookings over 1,000 places, in three set-based statements (the seat, the
    /// person's row, the reservation: what the hot path writes). The bookings written.
    /// </summary>
    public static async Task<int> BookSeededDayAsync(string connection, DateOnly day, CancellationToken ct)
    {
        await using var db = await Database.OpenAsync(Provider.Postgres, connection, ct);
        await using var tx = await db.BeginTransactionAsync(ct);
        await using var picked = Database.Command(db, """
            CREATE TEMP TABLE picked ON COMMIT DROP AS
            SELECT place_id, day, start_minute, service_id, seat_no, minutes, starts_at,
                   row_number() OVER (ORDER BY place_id, start_minute, seat_no) AS n
              FROM hot_seats
             WHERE day = @p0 AND seat_no <= 3 AND code IS NULL AND hold = 0
            """, [day]);
        picked.Transaction = tx;
        await picked.ExecuteNonQueryAsync(ct);
        var now = DateTimeOffset.UtcNow.ToUnixTimeSeconds();
        string[] writes =
        [
            """
            UPDATE hot_seats s SET code = 'R' || lpad(p.n::text, 9, '0')
              FROM picked p
             WHERE s.place_id = p.place_id AND s.day = p.day AND s.start_minute = p.start_minute
               AND s.service_id = p.service_id AND s.seat_no = p.seat_no
            """,
            "INSERT INTO active_persons (person_hash, code, ends_at) SELECT 'seed-person-' || n, 'R' || lpad(n::text, 9, '0'), starts_at + minutes * 60 FROM picked",
            """
            INSERT INTO hot_reservations (code, place_id, day, start_minute, seat_no, minutes, starts_at, person_hash, phone, name, language, created_at, service_id)
            SELECT 'R' || lpad(n::text, 9, '0'), place_id, day, start_minute, seat_no, minutes, starts_at, 'seed-person-' || n,
                   '+42195' || lpad((n % 10000000)::text, 7, '0'), 'Osoba ' || n, CASE WHEN n % 2 = 1 THEN 'sk' ELSE 'en' END, @p0, service_id
              FROM picked
            """,
        ];
        var booked = 0;
        foreach (var sql in writes)
        {
            await using var write = Database.Command(db, sql, [now]);
            write.Transaction = tx;
            booked = await write.ExecuteNonQueryAsync(ct);
        }
        await tx.CommitAsync(ct);
        await Database.ExecuteAsync(db, "ANALYZE hot_seats", ct);
        await Database.ExecuteAsync(db, "ANALYZE hot_reservations", ct);
        return booked;
    }

    /// <summary>Clears pg_stat_statements' counts.</summary>
    public static async Task ForgetStatementsAsync(string connection, CancellationToken ct)
    {
        await using var db = await Database.OpenAsync(Provider.Postgres, connection, ct);
        await Database.ScalarAsync(db, "SELECT count(*) FROM (SELECT pg_stat_statements_reset()) r", ct);
    }

    /// <summary>The reminder job's statements by total time (pg_stat_statements), one line each: calls, total and mean ms, rows, the text.</summary>
    public static async Task<List<string>> ReminderStatementsAsync(string connection, CancellationToken ct)
    {
        await using var db = await Database.OpenAsync(Provider.Postgres, connection, ct);
        await using var read = Database.Command(db, """
            SELECT calls, total_exec_time, mean_exec_time, rows, regexp_replace(query, '\s+', ' ', 'g')
              FROM pg_stat_statements
             WHERE query ILIKE '%reminders%' AND query NOT ILIKE '%pg_stat_statements%'
             ORDER BY total_exec_time DESC
             LIMIT 8
            """, []);
        await using var rows = await read.ExecuteReaderAsync(ct);
        var lines = new List<string>();
        while (await rows.ReadAsync(ct))
        {
            var text = rows.GetString(4);
            lines.Add(string.Create(CultureInfo.InvariantCulture,
                $"{rows.GetInt64(0),8} {rows.GetDouble(1),10:0.0} {rows.GetDouble(2),8:0.000} {rows.GetInt64(3),8}  {text[..Math.Min(text.Length, 220)]}"));
        }
        return lines;
    }

    /// <summary>Reminders queued so far.</summary>
    public static async Task<long> RemindedAsync(Provider provider, string connection, CancellationToken ct)
    {
        await using var db = await Database.OpenAsync(provider, connection, ct);
        return await Database.ScalarAsync(db, "SELECT COUNT(*) FROM reminders", ct);
    }

    /// <summary>The reminders' SMS in the outbox (kind 5): rows, and distinct booking codes among them.</summary>
    public static async Task<(long Rows, long Codes)> ReminderSmsAsync(Provider provider, string connection, CancellationToken ct)
    {
        await using var db = await Database.OpenAsync(provider, connection, ct);
        return (await Database.ScalarAsync(db, "SELECT COUNT(*) FROM outbox WHERE kind = 5", ct),
            await Database.ScalarAsync(db, "SELECT COUNT(DISTINCT code) FROM outbox WHERE kind = 5", ct));
    }

    private static void Set(DbCommand command, string code, long minute, long seat)
    {
        command.Parameters[0].Value = code;
        command.Parameters[3].Value = minute;
        command.Parameters[4].Value = seat;
    }
}
