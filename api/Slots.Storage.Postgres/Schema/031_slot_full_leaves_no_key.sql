-- A slot full that was decided at the seat claim, not by the cheap probe (the last seat went to a
-- racer in another transaction between the two), used to keep its idempotency row with outcome 2:
-- a retry with the same key then replayed "slot full" for good, even after a seat came back, and a
-- stampede paid a key row per such loser (PostgresHotPathTests counted 119 of 197 on a loaded
-- machine). Every slot full for a person holding nothing now leaves nothing behind, as 011 says.
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
                    -- The last seat went between the probe and the claim: a slot full like the
                    -- cheap one, so it leaves nothing behind, its key included (a retry asks again).
                    DELETE FROM active_persons WHERE person_hash = p_person;
                    DELETE FROM idempotency WHERE key = p_key;
                    o_status := 2;
                    o_code := NULL;
                    RETURN;
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
