-- The batched hot path: many reservations, cancellations and reschedules in one statement and
-- one transaction (slots_apply), with fewer writes per booking and a "slot full" that writes
-- nothing.

-- The person row is found by its key (person_hash) everywhere now: cancel and reschedule know
-- the holder from the reservation row. A second index on the code only cost a write per booking.
DROP INDEX IF EXISTS ix_active_persons_code;

-- A key row is inserted, then its outcome set in the same transaction: room on the page makes
-- that update a HOT update, which writes no index entry.
ALTER TABLE idempotency SET (fillfactor = 90);

-- Reserve: o_status is a ReservationStatus, or 0 when the key was used before for another request.
--
-- What the idempotency record holds: the answers that changed or found something a person must
-- keep seeing (Reserved with its code, AlreadyBooked, UnknownSlot, SlotStarted). A "slot full"
-- for a person holding nothing is NOT recorded: it writes nothing at all (no key, no person
-- row, no WAL, no fsync), so the most common answer of a stampede costs three index reads. A
-- retry with the same key then asks again, and books if a seat came back meanwhile; it can
-- still book only once, because a booking is recorded under its key.
--
-- Races, all under READ COMMITTED with any number of API instances (unchanged from 001):
-- * same idempotency key: the key row is inserted before anything else is written. A second
--   transaction with the key blocks on the first one's uncommitted index entry, then (ON
--   CONFLICT DO NOTHING) inserts nothing and re-reads the committed row: it answers the
--   winner's result as a replay. Inside one batch, the second operation sees the first one's row.
-- * one person, two slots: the person row is claimed before any seat; the second racer meets
--   the first one's row and answers AlreadyBooked without touching a seat.
-- * one seat: slots_claim_seat skips locked seats, so seat claims never wait.
CREATE OR REPLACE FUNCTION slots_reserve(
    p_place integer, p_day date, p_minute integer, p_person text, p_phone text, p_name text,
    p_language text, p_code text, p_key text, p_fingerprint text, p_now bigint,
    OUT o_status integer, OUT o_code text, OUT o_replayed boolean)
LANGUAGE plpgsql AS $$
DECLARE
    v_minutes     integer;
    v_starts      bigint;
    v_seat        integer;
    v_mine        boolean;
    v_same_phone  boolean;
    v_fingerprint text;
BEGIN
    o_replayed := false;
    SELECT s.minutes, s.starts_at INTO v_minutes, v_starts
    FROM hot_seats s WHERE s.place_id = p_place AND s.day = p_day AND s.start_minute = p_minute LIMIT 1;

    -- The cheap "slot full": the slot is open, no seat is free, and the person holds nothing
    -- that would have to be answered first.
    IF v_starts IS NOT NULL AND v_starts > p_now
       AND NOT EXISTS (SELECT 1 FROM hot_seats f
                       WHERE f.place_id = p_place AND f.day = p_day AND f.start_minute = p_minute AND f.code IS NULL)
       AND NOT EXISTS (SELECT 1 FROM active_persons ap WHERE ap.person_hash = p_person AND ap.ends_at > p_now) THEN
        -- The key is read after the seats: a booking under this key holds one of them, so if every
        -- seat was seen taken, that booking had committed and its key row is visible now.
        SELECT i.fingerprint, i.outcome, i.code INTO v_fingerprint, o_status, o_code FROM idempotency i WHERE i.key = p_key;
        IF FOUND THEN
            IF v_fingerprint <> p_fingerprint THEN
                o_status := 0;
                o_code := NULL;
            ELSE
                o_replayed := true;
            END IF;
            RETURN;
        END IF;
        o_status := 2;
        o_code := NULL;
        RETURN;
    END IF;

    LOOP
        INSERT INTO idempotency (key, fingerprint, outcome, code, created_at)
        VALUES (p_key, p_fingerprint, 0, NULL, p_now)
        ON CONFLICT (key) DO NOTHING;
        EXIT WHEN FOUND;
        -- A racer with the same key committed first: a new statement, a new snapshot, its answer.
        SELECT i.fingerprint, i.outcome, i.code INTO v_fingerprint, o_status, o_code FROM idempotency i WHERE i.key = p_key;
        IF FOUND THEN
            IF v_fingerprint <> p_fingerprint THEN
                o_status := 0;
                o_code := NULL;
            ELSE
                o_replayed := true;
            END IF;
            RETURN;
        END IF;
        -- The key was purged between the two statements: take it again.
    END LOOP;

    LOOP
        IF v_starts IS NOT NULL AND v_starts > p_now THEN
            v_mine := NULL;
            INSERT INTO active_persons AS ap (person_hash, code, ends_at)
            VALUES (p_person, p_code, v_starts + v_minutes * 60::bigint)
            ON CONFLICT (person_hash) DO UPDATE SET code = excluded.code, ends_at = excluded.ends_at
            WHERE ap.ends_at <= p_now   -- a stale row (its reservation already over) is simply replaced
            RETURNING true INTO v_mine;
            IF v_mine THEN
                SELECT c.o_seat INTO v_seat FROM slots_claim_seat(p_place, p_day, p_minute, p_code, p_now) c;
                IF v_seat IS NULL THEN
                    -- The last seat went between the probe and the claim.
                    DELETE FROM active_persons WHERE person_hash = p_person;
                    o_status := 2;
                    o_code := NULL;
                ELSE
                    INSERT INTO hot_reservations (code, place_id, day, start_minute, seat_no, minutes, starts_at,
                                                  person_hash, phone, name, language, created_at)
                    VALUES (p_code, p_place, p_day, p_minute, v_seat, v_minutes, v_starts,
                            p_person, p_phone, p_name, p_language, p_now);
                    -- The SMS and the change record from what is at hand, not read back.
                    INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at)
                    VALUES (1, p_code, p_phone, p_language, p_place, p_day, p_minute, p_now);
                    INSERT INTO changes (kind, code, place_id, day, start_minute, seat_no, person_hash, phone, name,
                                         language, created_at, at)
                    VALUES (1, p_code, p_place, p_day, p_minute, v_seat, p_person, p_phone, p_name, p_language, p_now, p_now);
                    o_status := 1;
                    o_code := p_code;
                END IF;
                EXIT;
            END IF;
        END IF;

        -- The person holds an active reservation, or no seat can be had at all (an active
        -- reservation still answers first). Its code is shown only to the phone that made it.
        SELECT ap.code, COALESCE(hr.phone, r.phone) = p_phone INTO o_code, v_same_phone
        FROM active_persons ap
        LEFT JOIN hot_reservations hr ON hr.code = ap.code
        LEFT JOIN reservations r ON r.code = ap.code
        WHERE ap.person_hash = p_person AND ap.ends_at > p_now;
        IF FOUND THEN
            o_status := 3;
            IF v_same_phone IS NOT TRUE THEN
                o_code := NULL;
            END IF;
            EXIT;
        END IF;
        IF v_starts IS NULL OR v_starts <= p_now THEN
            o_status := CASE WHEN v_starts IS NULL THEN 4 ELSE 5 END;
            o_code := NULL;
            EXIT;
        END IF;
        -- The holder cancelled between our upsert and this read: try the person row again.
    END LOOP;

    UPDATE idempotency SET outcome = o_status, code = o_code WHERE key = p_key;
END;
$$;

-- Cancel: 1 cancelled, 2 not found (or not the owner's proof), 3 already started.
CREATE OR REPLACE FUNCTION slots_cancel(p_code text, p_phone text, p_person text, p_now bigint)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    r hot_reservations%ROWTYPE;
BEGIN
    SELECT * INTO r FROM hot_reservations WHERE code = p_code FOR UPDATE;
    IF NOT FOUND OR NOT slots_owns(p_phone, p_person, r.phone, r.person_hash) THEN
        RETURN 2; -- a code without its owner's phone or id reveals nothing
    END IF;
    IF r.starts_at <= p_now THEN
        RETURN 3;
    END IF;
    INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at)
    VALUES (2, r.code, r.phone, r.language, r.place_id, r.day, r.start_minute, p_now);
    INSERT INTO changes (kind, code, place_id, day, start_minute, seat_no, person_hash, phone, name, language, created_at, at)
    VALUES (2, r.code, r.place_id, r.day, r.start_minute, r.seat_no, r.person_hash, r.phone, r.name, r.language, r.created_at, p_now);
    UPDATE hot_seats SET code = NULL
    WHERE place_id = r.place_id AND day = r.day AND start_minute = r.start_minute AND seat_no = r.seat_no AND code = p_code;
    DELETE FROM hot_reservations WHERE code = p_code;
    DELETE FROM active_persons WHERE person_hash = r.person_hash AND code = p_code;
    RETURN 1;
END;
$$;

-- Reschedule: a RescheduleStatus value (1 rescheduled, 2 not found, 3 full, 4 unknown slot,
-- 5 slot started, 6 the held reservation started).
CREATE OR REPLACE FUNCTION slots_reschedule(p_code text, p_phone text, p_person text,
                                            p_place integer, p_day date, p_minute integer, p_now bigint)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    r hot_reservations%ROWTYPE;
    v_seat    integer;
    v_minutes integer;
    v_starts  bigint;
BEGIN
    SELECT * INTO r FROM hot_reservations WHERE code = p_code FOR UPDATE;
    IF NOT FOUND OR NOT slots_owns(p_phone, p_person, r.phone, r.person_hash) THEN
        RETURN 2;
    END IF;
    IF r.starts_at <= p_now THEN
        RETURN 6;
    END IF;
    IF r.place_id = p_place AND r.day = p_day AND r.start_minute = p_minute THEN
        RETURN 1; -- a retried reschedule that already happened
    END IF;
    SELECT c.o_seat, c.o_minutes, c.o_starts INTO v_seat, v_minutes, v_starts
    FROM slots_claim_seat(p_place, p_day, p_minute, p_code, p_now) c;
    IF v_seat IS NULL THEN
        RETURN CASE slots_probe(p_place, p_day, p_minute, p_now) WHEN 4 THEN 4 WHEN 5 THEN 5 ELSE 3 END;
    END IF;
    UPDATE hot_seats SET code = NULL
    WHERE place_id = r.place_id AND day = r.day AND start_minute = r.start_minute AND seat_no = r.seat_no AND code = p_code;
    UPDATE hot_reservations SET place_id = p_place, day = p_day, start_minute = p_minute, seat_no = v_seat,
        minutes = v_minutes, starts_at = v_starts
    WHERE code = p_code;
    UPDATE active_persons SET ends_at = v_starts + v_minutes * 60::bigint WHERE person_hash = r.person_hash AND code = p_code;
    INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at)
    VALUES (3, r.code, r.phone, r.language, p_place, p_day, p_minute, p_now);
    INSERT INTO changes (kind, code, place_id, day, start_minute, seat_no, person_hash, phone, name, language, created_at, at)
    VALUES (3, r.code, p_place, p_day, p_minute, v_seat, r.person_hash, r.phone, r.name, r.language, r.created_at, p_now);
    RETURN 1;
END;
$$;

-- Group commit: the operations an API instance gathered while its previous batch was in flight,
-- in one statement, one transaction, one round trip; one result row per operation, in order.
-- p_op: 1 reserve, 2 cancel, 3 reschedule. For reserve, p_phone/p_person are the contact and the
-- person; for cancel and reschedule they are the proof (either may be NULL). The caller sorts
-- the operations (by person, then code) so concurrent batches meet row locks in one order; each
-- operation sees the ones before it (a key or a person twice in a batch behaves as two racers).
CREATE FUNCTION slots_apply(
    p_op integer[], p_place integer[], p_day date[], p_minute integer[],
    p_person text[], p_phone text[], p_name text[], p_language text[],
    p_code text[], p_key text[], p_fingerprint text[], p_now bigint[])
RETURNS TABLE (o_status integer, o_code text, o_replayed boolean)
LANGUAGE plpgsql AS $$
DECLARE
    i integer;
BEGIN
    FOR i IN 1 .. coalesce(array_length(p_op, 1), 0) LOOP
        o_code := NULL;
        o_replayed := false;
        CASE p_op[i]
            WHEN 1 THEN
                SELECT r.o_status, r.o_code, r.o_replayed INTO o_status, o_code, o_replayed
                FROM slots_reserve(p_place[i], p_day[i], p_minute[i], p_person[i], p_phone[i], p_name[i],
                                   p_language[i], p_code[i], p_key[i], p_fingerprint[i], p_now[i]) r;
            WHEN 2 THEN
                o_status := slots_cancel(p_code[i], p_phone[i], p_person[i], p_now[i]);
            WHEN 3 THEN
                o_status := slots_reschedule(p_code[i], p_phone[i], p_person[i], p_place[i], p_day[i], p_minute[i], p_now[i]);
        END CASE;
        RETURN NEXT;
    END LOOP;
END;
$$;
