-- Cancel: 1 cancelled, 2 not found (or not the owner's proof), 3 already started, 4 checked in at the door
-- (staff_check_in locks the same hot row, so a check-in and a cancel never both succeed).
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
    IF EXISTS (SELECT 1 FROM attendance WHERE code = p_code AND state = 2) THEN
        RETURN 4;
    END IF;
    INSERT INTO outbox (kind, code, phone, language, place_id, day, start_minute, created_at)
    VALUES (2, r.code, r.phone, r.language, r.place_id, r.day, r.start_minute, p_now);
    INSERT INTO changes (kind, code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language,
                         created_at, at)
    VALUES (2, r.code, r.place_id, r.day, r.start_minute, r.service_id, r.seat_no, r.person_hash, r.phone, r.name, r.language,
            r.created_at, p_now);
    PERFORM slots_release_seat(r.place_id, r.day, r.start_minute, r.service_id, r.seat_no, p_code);
    DELETE FROM hot_reservations WHERE code = p_code;
    DELETE FROM active_persons WHERE person_hash = r.person_hash AND service_id = r.service_id AND code = p_code;
    RETURN 1;
END;
$$;
