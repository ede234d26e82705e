-- Reschedule: a RescheduleStatus value (1 rescheduled, 2 not found, 3 full, 4 unknown slot,
-- 5 slot started, 6 the held reservation started, 13 checked in at the door: the visit is under way
-- where it was booked, so it stays there; the hot row's lock orders this against staff_check_in). A booking moves within its own service: the
-- target is the booking's service's slot at the place, day and time given (Core asks for nothing else).
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
    IF EXISTS (SELECT 1 FROM attendance a WHERE a.code = p_code AND a.state = 2) THEN
        RETURN 13;
    END IF;
    SELECT c.o_seat, c.o_minutes, c.o_starts INTO v_seat, v_minutes, v_starts
    FROM slots_claim_seat(p_place, p_day, p_minute, r.service_id, p_code, p_now) c;
    IF v_seat IS NULL THEN
        RETURN CASE slots_probe(p_place, p_day, p_minute, r.service_id, p_now) WHEN 4 THEN 4 WHEN 5 THEN 5 ELSE 3 END;
    END IF;
    PERFORM slots_release_seat(r.place_id, r.day, r.start_minute, r.service_id, r.seat_no, p_code);
    UPDATE hot_reservations SET place_id = p_place, day = p_day, start_minute = p_minute, seat_no = v_seat,
        minutes = v_minutes, starts_at = v_starts
    WHERE code = p_code;
    -- A pair's second dose moves the person's row, which its first code holds.
    UPDATE active_persons SET ends_at = v_starts + v_minutes * 60::bigint
    WHERE person_hash = r.person_hash AND service_id = r.service_id
      AND code = coalesce((SELECT d.first_code FROM dose_pairs d WHERE d.second_code = p_code), p_code);
    INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at)
    VALUES (3, r.code, r.phone, r.language, p_place, p_day, p_minute, p_now);
    INSERT INTO changes (kind, code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language,
                         created_at, at)
    VALUES (3, r.code, p_place, p_day, p_minute, r.service_id, v_seat, r.person_hash, r.phone, r.name, r.language,
            r.created_at, p_now);
    RETURN 1;
END;
$$;
