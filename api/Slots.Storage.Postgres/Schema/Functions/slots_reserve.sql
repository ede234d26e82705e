-- One reservation decided on its own: slots_apply's fallback for the operations its set-based
-- path leaves to it (a key or a person a second time in one batch, a holder who cancelled between
-- two of its statements). Each call sees what the batch wrote before it, as racers see each
-- other. o_status is a ReservationStatus, or 0 when the key was used before for another request;
-- o_minutes is the slot's length (for the 201), 0 when the slot is unknown.
--
-- The key is locked by slots_apply (an advisory lock on its hash) before this runs, so a racer
-- with the same key in another batch waits for this transaction and then reads its answer.
-- A slot full for a person holding nothing leaves nothing behind: no key, no person row. A booking
-- writes three rows (seat, person, reservation with its key, SMS and change record); any other
-- answer a person must keep seeing writes its key to idempotency.
CREATE OR REPLACE FUNCTION slots_reserve(
    p_place integer, p_day date, p_minute integer, p_person text, p_phone text, p_name text,
    p_language text, p_code text, p_key text, p_fingerprint text, p_now bigint,
    OUT o_status integer, OUT o_code text, OUT o_replayed boolean, OUT o_minutes integer)
LANGUAGE plpgsql AS $$
DECLARE
    v_starts      bigint;
    v_seat        integer;
    v_mine        boolean;
    v_same_phone  boolean;
    v_fingerprint text;
BEGIN
    o_replayed := false;
    SELECT s.minutes, s.starts_at INTO o_minutes, v_starts
    FROM hot_seats s WHERE s.place_id = p_place AND s.day = p_day AND s.start_minute = p_minute LIMIT 1;
    o_minutes := coalesce(o_minutes, 0);

    SELECT i.fingerprint, i.outcome, i.code INTO v_fingerprint, o_status, o_code FROM idempotency i WHERE i.key = p_key;
    IF NOT FOUND THEN
        SELECT k.fingerprint, 1, k.code INTO v_fingerprint, o_status, o_code FROM hot_reservations k WHERE k.idem_key = p_key;
    END IF;
    IF FOUND THEN
        IF v_fingerprint <> p_fingerprint THEN
            o_status := 0;
            o_code := NULL;
        ELSE
            o_replayed := true;
        END IF;
        RETURN;
    END IF;

    LOOP
        IF v_starts IS NOT NULL AND v_starts > p_now THEN
            v_mine := NULL;
            INSERT INTO active_persons AS ap (person_hash, code, ends_at)
            VALUES (p_person, p_code, v_starts + o_minutes * 60::bigint)
            ON CONFLICT (person_hash) DO UPDATE SET code = excluded.code, ends_at = excluded.ends_at
            WHERE ap.ends_at <= p_now   -- a stale row (its reservation already over) is simply replaced
            RETURNING true INTO v_mine;
            IF v_mine THEN
                SELECT c.o_seat INTO v_seat FROM slots_claim_seat(p_place, p_day, p_minute, p_code, p_now) c;
                IF v_seat IS NULL THEN
                    DELETE FROM active_persons WHERE person_hash = p_person;
                    o_status := 2;
                    o_code := NULL;
                    RETURN;
                END IF;
                -- The reservation carries its key, its confirmation SMS and its change record.
                INSERT INTO hot_reservations (code, place_id, day, start_minute, seat_no, minutes, starts_at,
                                              person_hash, phone, name, language, created_at,
                                              idem_key, fingerprint, event_id, sms_pending, flush_pending)
                VALUES (p_code, p_place, p_day, p_minute, v_seat, o_minutes, v_starts,
                        p_person, p_phone, p_name, p_language, p_now,
                        p_key, p_fingerprint, nextval('outbox_id_seq'), true, true);
                o_status := 1;
                o_code := p_code;
                RETURN;
            END IF;
        END IF;

        -- The person holds an active reservation (it answers first), or no seat can be had at
        -- all. Its code is shown only to the phone that made it.
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

    INSERT INTO idempotency (key, fingerprint, outcome, code, created_at)
    VALUES (p_key, p_fingerprint, o_status, o_code, p_now);
END;
$$;
