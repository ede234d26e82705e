using Slots.Reservations;

namespace Slots.Storage.Sqlite;

/// <summary>
/// A pair's second dose, in the writer's transaction after the first dose's seat: the earliest free
/// seat of the service at the place within the range, on a hot day (before the horizon) or, failing
/// that, a disk day. Hot days all come before disk days, so the first found is the earliest.
/// </summary>
public sealed partial class SqliteHotPath
{
    /// <summary>Seats and writes the second dose and the pair's link; null (nothing written) when no seat is free in the range.</summary>
    private (SecondDose Dose, long EndsAt)? SeatSecond(ReserveCommand c, long now)
    {
        var range = c.Second!;
        var code = c.SecondCode!;
        var slot = c.Slot;
        using (var hot = Command(PairSql.ClaimHot, ("$code", code), ("$place", slot.PlaceId), ("$service", slot.ServiceId),
            ("$minute", range.StartMinute), ("$from", range.From), ("$to", range.To), ("$now", now)).ExecuteReader())
        {
            if (hot.Read())
            {
                var day = DateOnly.Parse(hot.GetString(0), System.Globalization.CultureInfo.InvariantCulture);
                var (seat, minutes, startsAt) = (hot.GetInt32(1), hot.GetInt32(2), hot.GetInt64(3));
                hot.Close();
                // One SMS confirms both, and the first dose's key answers a replay: the second's row has neither.
                InsertReservation(c, new SeatTaken(code, day, range.StartMinute, seat, minutes, startsAt), key: null, fingerprint: null,
                    eventId: null, now);
                return (Linked(c, new SecondDose(code, day, range.StartMinute, minutes), now), startsAt + (minutes * 60L));
            }
        }
        DateOnly diskDay;
        int diskMinutes;
        int capacity;
        long diskStarts;
        using (var disk = Command(PairSql.FindDisk, ("$place", slot.PlaceId), ("$service", slot.ServiceId), ("$minute", range.StartMinute),
            ("$from", range.From), ("$to", range.To), ("$now", now)).ExecuteReader())
        {
            if (!disk.Read())
            {
                return null;
            }
            (diskDay, diskMinutes, capacity, diskStarts) = (DateOnly.Parse(disk.GetString(0), System.Globalization.CultureInfo.InvariantCulture),
                disk.GetInt32(1), disk.GetInt32(2), disk.GetInt64(3));
        }
        var taken = new HashSet<int>();
        using (var seats = Command(PairSql.DiskSeats, ("$place", slot.PlaceId), ("$day", diskDay), ("$minute", range.StartMinute),
            ("$service", slot.ServiceId)).ExecuteReader())
        {
            while (seats.Read())
            {
                taken.Add(seats.GetInt32(0));
            }
        }
        var free = Enumerable.Range(1, capacity).First(n => !taken.Contains(n));
        Command(PairSql.InsertDisk,
            ("$code", code), ("$place", slot.PlaceId), ("$day", diskDay), ("$minute", range.StartMinute), ("$service", slot.ServiceId),
            ("$seat", free), ("$person", c.PersonHash), ("$phone", c.Phone), ("$name", c.Name), ("$language", c.Language),
            ("$now", now)).ExecuteNonQuery();
        return (Linked(c, new SecondDose(code, diskDay, range.StartMinute, diskMinutes), now), diskStarts + (diskMinutes * 60L));
    }

    private SecondDose Linked(ReserveCommand c, SecondDose second, long now)
    {
        Command(PairSql.InsertPair, ("$first", c.NewCode), ("$second", second.Code), ("$service", c.Slot.ServiceId), ("$now", now))
            .ExecuteNonQuery();
        return second;
    }

    private static class PairSql
    {
        // The earliest free hot seat in the range at the time (the writer is alone: nothing races it).
        public const string ClaimHot = """
            UPDATE hot_seats SET code = $code
            WHERE (place_id, day, start_minute, service_id, seat_no) = (
                SELECT place_id, day, start_minute, service_id, seat_no FROM hot_seats
                WHERE place_id = $place AND service_id = $service AND start_minute = $minute AND day BETWEEN $from AND $to
                  AND code IS NULL AND hold = 0 AND starts_at > $now
                ORDER BY day, seat_no LIMIT 1)
            RETURNING day, seat_no, minutes, starts_at
            """;

        // The earliest disk day (from the place's horizon on) in the range whose slot at the time is open and has a free seat.
        public const string FindDisk = """
            SELECT s.day, s.minutes, s.capacity, s.starts_at FROM slots s
            WHERE s.place_id = $place AND s.service_id = $service AND s.start_minute = $minute AND s.day BETWEEN $from AND $to
              AND s.day >= (SELECT p.hot_until FROM places p WHERE p.id = $place)
              AND s.closed_by IS NULL AND s.starts_at > $now
              AND s.capacity > (SELECT count(*) FROM reservations r
                                WHERE r.place_id = s.place_id AND r.day = s.day AND r.start_minute = s.start_minute
                                  AND r.service_id = s.service_id AND r.cancelled_at IS NULL)
            ORDER BY s.day LIMIT 1
            """;

        public const string DiskSeats = """
            SELECT seat_no FROM reservations
            WHERE place_id = $place AND day = $day AND start_minute = $minute AND service_id = $service AND cancelled_at IS NULL
            """;

        // The disk row is the reservation there, as the cold path writes it.
        public const string InsertDisk = """
            INSERT INTO reservations (code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language,
                                      created_at, cancelled_at, updated_at)
            VALUES ($code, $place, $day, $minute, $service, $seat, $person, $phone, $name, $language, $now, NULL, $now)
            """;

        public const string InsertPair = """
            INSERT INTO dose_pairs (first_code, second_code, service_id, created_at) VALUES ($first, $second, $service, $now)
            """;

        // A pair whose second dose found no seat gives its first seat back (it was free, not held, a moment ago).
        public const string ReleaseFirst = """
            UPDATE hot_seats SET code = NULL
            WHERE place_id = $place AND day = $day AND start_minute = $minute AND service_id = $service AND code = $code
            """;
    }
}
