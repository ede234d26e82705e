using Microsoft.Data.Sqlite;
using Slots.Reservations;
using Slots.Staff;

namespace Slots.Storage.Sqlite;

/// <summary>The hot path's statements on SQLite, each prepared once per connection.</summary>
public sealed partial class SqliteHotPath
{
    private static class Sql
    {
        public const string FindAttendance = "SELECT 1 FROM attendance WHERE code = $code AND state = 2";

        public const string ReadAttendance = "SELECT at, by FROM attendance WHERE code = $code AND state = 2";

        // The trail's entry in the same transaction as the check-in: one write, and no second writer on the file.
        public const string InsertAudit = "INSERT INTO staff_audit (at, actor, place_id, action, target) VALUES ($at, $by, $place, $action, $code)";

        public const string FindHotAtPlace = "SELECT day FROM hot_reservations WHERE code = $code AND place_id = $place";

        // Over a no-show (state 3) the late arrival's check-in replaces it.
        public const string InsertAttendance = """
            INSERT INTO attendance (code, place_id, day, state, at, by)
            SELECT code, place_id, day, 2, $at, $by FROM hot_reservations WHERE code = $code AND place_id = $place
            ON CONFLICT (code) DO UPDATE SET state = 2, at = excluded.at, by = excluded.by WHERE attendance.state = 3
            """;

        // A booking's key is on its hot row; every other remembered answer's in idempotency.
        public const string FindIdempotency = """
            SELECT fingerprint, outcome, code FROM idempotency WHERE key = $key
            UNION ALL
            SELECT fingerprint, 1, code FROM hot_reservations WHERE idem_key = $key
            """;

        public const string DrawEventIds = "UPDATE sqlite_sequence SET seq = seq + $n WHERE name = 'outbox' RETURNING seq";

        public const string RememberIdempotency = """
            INSERT INTO idempotency (key, fingerprint, outcome, code, created_at) VALUES ($key, $fingerprint, $outcome, $code, $now)
            """;

        // Phone of the existing reservation, hot or (for days beyond the window) on disk.
        // Who may book the service: its rule and the age cut-off in force (the greatest date of the
        // steps already open). No row: everyone, one primary-key probe.
        // The rule, its cut-off in force, and the invitation code the booking brought (no row when none came).
        public const string FindEligibility = """
            SELECT e.rule,
                   (SELECT max(a.born_on_or_before) FROM service_age_steps a WHERE a.service_id = $service AND a.opens_at <= $now),
                   e.accepts_invitations, c.hash IS NOT NULL, c.revoked, c.spent_at IS NOT NULL, c.person_hash
            FROM service_eligibility e
            LEFT JOIN invitation_codes c ON c.hash = $invite AND c.service_id = $service
            WHERE e.service_id = $service
            """;

        // The code binds to the person whose booking it made eligible; a rebooking after a cancel moves it to the new booking.
        public const string SpendInvitation = """
            UPDATE invitation_codes SET person_hash = $person, spent_code = $code, spent_at = coalesce(spent_at, $now)
            WHERE hash = $invite AND service_id = $service AND revoked = 0 AND (spent_at IS NULL OR person_hash = $person)
            """;

        public const string FindActivePerson = """
            SELECT ap.code, COALESCE(hr.phone, r.phone)
            FROM active_persons ap
            LEFT JOIN hot_reservations hr ON hr.code = ap.code
            LEFT JOIN reservations r ON r.code = ap.code
            WHERE ap.person_hash = $person AND ap.service_id = $service AND ap.ends_at > $now
            """;

        // The lowest free seat of the service's slot (nobody's booking, not held for the waiting
        // list); the writer is alone, so no two claims can race here.
        public const string ClaimSeat = """
            UPDATE hot_seats SET code = $code
            WHERE place_id = $place AND day = $day AND start_minute = $minute AND service_id = $service
              AND seat_no = (SELECT seat_no FROM hot_seats
                             WHERE place_id = $place AND day = $day AND start_minute = $minute AND service_id = $service
                               AND code IS NULL AND hold = 0 AND starts_at > $now
                             ORDER BY seat_no LIMIT 1)
            RETURNING seat_no, minutes, starts_at
            """;

        public const string ProbeSlot = """
            SELECT MAX(starts_at) FROM hot_seats
            WHERE place_id = $place AND day = $day AND start_minute = $minute AND service_id = $service
            """;

        // The row is the booking, its key, its confirmation (event_id, sms_pending) and its change for the flush.
        public const string InsertReservation = """
            INSERT INTO hot_reservations (code, place_id, day, start_minute, service_id, seat_no, minutes, starts_at, person_hash, phone, name,
                                          language, created_at, idem_key, fingerprint, event_id, sms_pending, flush_pending)
            VALUES ($code, $place, $day, $minute, $service, $seat, $minutes, $starts, $person, $phone, $name, $language, $now,
                    $key, $fingerprint, $event, $event IS NOT NULL, 1)
            """;

        // One row per person and service; a stale row (its reservation already over) is simply replaced.
        public const string UpsertActivePerson = """
            INSERT INTO active_persons (person_hash, service_id, code, ends_at) VALUES ($person, $service, $code, $ends)
            ON CONFLICT (person_hash, service_id) DO UPDATE SET code = excluded.code, ends_at = excluded.ends_at
            """;

        public const string FindHeld = """
            SELECT place_id, day, start_minute, seat_no, starts_at, phone, person_hash, service_id FROM hot_reservations WHERE code = $code
            """;

        // A seat of a slot the site closed goes with its booking instead of opening again; while
        // someone on the place's waiting list wants that day and service, it is kept for the line
        // (hold 1, no offer).
        public const string ReleaseSeat = """
            DELETE FROM hot_seats
            WHERE place_id = $place AND day = $day AND start_minute = $minute AND service_id = $service AND seat_no = $seat AND code = $code
              AND EXISTS (SELECT 1 FROM slots s WHERE s.place_id = $place AND s.day = $day AND s.start_minute = $minute
                          AND s.service_id = $service AND s.closed_by IS NOT NULL);
            UPDATE hot_seats SET code = NULL, hold = CASE WHEN EXISTS (
                    SELECT 1 FROM waitlist w WHERE w.place_id = $place AND w.service_id = $service AND w.state = 1
                                             AND $day BETWEEN w.from_day AND w.to_day)
                THEN 1 ELSE 0 END
            WHERE place_id = $place AND day = $day AND start_minute = $minute AND service_id = $service AND seat_no = $seat AND code = $code
            """;

        public const string DeleteReservation = "DELETE FROM hot_reservations WHERE code = $code";

        public const string DeleteActivePerson = "DELETE FROM active_persons WHERE code = $code";

        public const string MoveReservation = """
            UPDATE hot_reservations SET place_id = $place, day = $day, start_minute = $minute, seat_no = $seat,
                minutes = $minutes, starts_at = $starts
            WHERE code = $code
            """;

        // A pair's second dose moves the person's row, which its first code holds, as far as it goes.
        public const string MoveActivePerson = """
            UPDATE active_persons SET ends_at = $ends
            WHERE code = coalesce((SELECT first_code FROM dose_pairs WHERE second_code = $code), $code)
            """;

        public const string InsertWalkIn = """
            INSERT INTO staff_audit (at, actor, place_id, action, target, reason) VALUES ($now, $by, $place, 'walk-in', $code, $sms)
            """;

        public const string InsertOutbox = """
            INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at)
            SELECT $kind, code, phone, language, place_id, day, start_minute, $now FROM hot_reservations WHERE code = $code
            """;

        public const string ReadChanges = """
            SELECT id, kind, code, place_id, day, start_minute, seat_no, person_hash, phone, name, language, created_at, at, service_id
            FROM changes ORDER BY id LIMIT $n
            """;

        // The change carries the whole reservation, so applying it is an upsert of that state;
        // updated_at keeps a row from going back to an older one if a change is ever applied twice.
        public const string ApplyChange = """
            INSERT INTO reservations (code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language,
                                      created_at, cancelled_at, updated_at)
            VALUES ($code, $place, $day, $minute, $service, $seat, $person, $phone, $name, $language, $created,
                    CASE WHEN $kind = 2 THEN $at END, $at)
            ON CONFLICT (code) DO UPDATE SET place_id = excluded.place_id, day = excluded.day, start_minute = excluded.start_minute,
                service_id = excluded.service_id, seat_no = excluded.seat_no, person_hash = excluded.person_hash, phone = excluded.phone, name = excluded.name,
                language = excluded.language, created_at = excluded.created_at, cancelled_at = excluded.cancelled_at,
                updated_at = excluded.updated_at
            WHERE reservations.updated_at <= excluded.updated_at AND $kind <> 1
            """;

        // New bookings are their own change records: written where the disk has no row for the code
        // yet (a change applied before them is never undone), then unmarked. The writer is alone and
        // every change record was applied first, so no seat on the disk is still another's. Both
        // statements take the same rows: second doses and walk-ins without an SMS have no event_id, so
        // the code breaks the ties (the partial index holds it beside event_id).
        public const string FlushPending = """
            INSERT INTO reservations (code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language,
                                      created_at, cancelled_at, updated_at)
            SELECT code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language, created_at, NULL, created_at
            FROM hot_reservations WHERE flush_pending = 1 ORDER BY event_id, code LIMIT $n
            ON CONFLICT (code) DO NOTHING
            """;

        public const string UnmarkPending = """
            UPDATE hot_reservations SET flush_pending = 0
            WHERE code IN (SELECT code FROM hot_reservations WHERE flush_pending = 1 ORDER BY event_id, code LIMIT $n)
            """;

        // The only writer: nothing can commit a lower id between the read and this delete.
        public const string DeleteChanges = "DELETE FROM changes WHERE id <= $last";

        public const string InsertChange = """
            INSERT INTO changes (kind, code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language, created_at, at)
            SELECT $kind, code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language, created_at, $now
            FROM hot_reservations WHERE code = $code
            """;
    }
}
