using System.Data.Common;
using System.Diagnostics;
using Slots.Window;

namespace Slots.LoadTest.Data;

/// <summary>The seed's shape; DiskDays more days of slots from the horizon on, on the disk tables only (a pair's second doses).</summary>
public sealed record SeedOptions(int Places, int Days, int FirstMinute, int LastMinute, int Interval, int Length, int Capacity, string Zone,
    int DiskDays = 0);

public sealed record SeedResult(int Places, long Slots, long Seats, double Seconds, long DatabaseBytes, long HotSeatsBytes);

/// <summary>
/// The scale run's data, made by the database itself: places × days × times × seats with a few
/// set-based INSERT … SELECT statements, straight into the catalogue and the hot window (the
/// horizon set, so the API's window loader has nothing left to do). Millions of seats in
/// seconds, where the admin API would take an hour. Only into a database without places.
/// </summary>
public static class Seeder
{
    public static async Task<SeedResult> RunAsync(Provider provider, string connectionString, SeedOptions o, CancellationToken ct)
    {
        var clock = Stopwatch.StartNew();
        await using var db = await Database.OpenAsync(provider, connectionString, ct);
        if (await Database.ScalarAsync(db, "SELECT count(*) FROM places", ct) > 0)
        {
            throw new InvalidOperationException("The database already has places; the seeder fills an empty one only.");
        }
        var zone = TimeZoneInfo.FindSystemTimeZoneById(o.Zone);
        var today = LocalClock.Today(zone, DateTimeOffset.UtcNow);
        var pg = provider == Provider.Postgres;
        await using (var tx = await db.BeginTransactionAsync(ct))
        {
            await Database.ExecuteAsync(db, pg
                ? "CREATE TEMP TABLE seed_times (day date NOT NULL, start_minute integer NOT NULL, starts_at bigint NOT NULL) ON COMMIT DROP"
                : "CREATE TEMP TABLE seed_times (day TEXT NOT NULL, start_minute INTEGER NOT NULL, starts_at INTEGER NOT NULL)", ct);
            // Local wall-clock times to instants in .NET, daylight saving included, as the API does.
            var horizon = today.AddDays(Math.Max(o.Days, 30));
            foreach (var day in Enumerable.Range(0, o.Days).Select(d => today.AddDays(d))
                .Concat(Enumerable.Range(0, o.DiskDays).Select(d => horizon.AddDays(d))))
            {
                for (var m = o.FirstMinute; m <= o.LastMinute; m += o.Interval)
                {
                    await Database.ExecuteAsync(db, "INSERT INTO seed_times VALUES (@p0, @p1, @p2)", ct,
                        pg ? day : (object)day.ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture), m,
                        LocalClock.ToInstant(day, m, zone).ToUnixTimeSeconds());
                }
            }
            object horizonValue = pg ? horizon : horizon.ToString("yyyy-MM-dd", System.Globalization.CultureInfo.InvariantCulture);
            await Database.ExecuteAsync(db, pg
                ? """
                  INSERT INTO places (name, address, region, time_zone, active, hot_until)
                  SELECT 'Load site ' || g, 'Street ' || g || ', 811 01 Bratislava', 'Region ' || (g % 8 + 1), @p0, true, @p1
                  FROM generate_series(1, @p2) AS g
                  """
                : """
                  WITH RECURSIVE g(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM g WHERE n < @p2)
                  INSERT INTO places (name, address, region, time_zone, active, hot_until)
                  SELECT 'Load site ' || n, 'Street ' || n || ', 811 01 Bratislava', 'Region ' || (n % 8 + 1), @p0, 1, @p1 FROM g
                  """, ct, o.Zone, horizonValue, o.Places);
            // Every place offers the default service, as a place the admin API creates does: a booking or an
            // availability read that names no service gets it.
            await Database.ExecuteAsync(db, "INSERT INTO place_services (place_id, service_id, seats) SELECT id, 1, @p0 FROM places ORDER BY id",
                ct, o.Capacity);
            await Database.ExecuteAsync(db, """
                INSERT INTO slots (place_id, day, start_minute, minutes, capacity, starts_at)
                SELECT p.id, t.day, t.start_minute, @p0, @p1, t.starts_at FROM places p CROSS JOIN seed_times t
                ORDER BY p.id, t.day, t.start_minute
                """, ct, o.Length, o.Capacity);
            // In primary-key order: the B-tree is appended to, not split all over.
            await Database.ExecuteAsync(db, pg
                ? """
                  INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code)
                  SELECT s.place_id, s.day, s.start_minute, n, s.minutes, s.starts_at, NULL
                  FROM slots s CROSS JOIN generate_series(1, @p0) AS n
                  WHERE s.day < @p1
                  ORDER BY s.place_id, s.day, s.start_minute, n
                  """
                : """
                  WITH RECURSIVE seat(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM seat WHERE n < @p0)
                  INSERT INTO hot_seats (place_id, day, start_minute, seat_no, minutes, starts_at, code)
                  SELECT s.place_id, s.day, s.start_minute, seat.n, s.minutes, s.starts_at, NULL
                  FROM slots s CROSS JOIN seat
                  WHERE s.day < @p1
                  ORDER BY s.place_id, s.day, s.start_minute, seat.n
                  """, ct, o.Capacity, horizonValue);
            if (!pg)
            {
                await Database.ExecuteAsync(db, "DROP TABLE seed_times", ct);
            }
            await tx.CommitAsync(ct);
        }
        await Database.ExecuteAsync(db, "ANALYZE", ct);
        var slots = await Database.ScalarAsync(db, "SELECT count(*) FROM slots", ct);
        var seats = await Database.ScalarAsync(db, "SELECT count(*) FROM hot_seats", ct);
        var (size, hot) = await SizeAsync(db, pg, ct);
        return new SeedResult(o.Places, slots, seats, Math.Round(clock.Elapsed.TotalSeconds, 1), size, hot);
    }

    /// <summary>Bytes of the whole database and of hot_seats with its index.</summary>
    public static async Task<(long Database, long HotSeats)> SizeAsync(DbConnection db, bool pg, CancellationToken ct)
    {
        if (pg)
        {
            return (await Database.ScalarAsync(db, "SELECT pg_database_size(current_database())", ct),
                await Database.ScalarAsync(db, "SELECT pg_total_relation_size('hot_seats')", ct));
        }
        var pages = await Database.ScalarAsync(db, "PRAGMA page_count", ct);
        var pageSize = await Database.ScalarAsync(db, "PRAGMA page_size", ct);
        long hot;
        try
        {
            hot = await Database.ScalarAsync(db, "SELECT sum(pgsize) FROM dbstat WHERE name = 'hot_seats'", ct);
        }
        catch (DbException)
        {
            hot = -1; // this SQLite build has no dbstat table
        }
        return (pages * pageSize, hot);
    }
}
