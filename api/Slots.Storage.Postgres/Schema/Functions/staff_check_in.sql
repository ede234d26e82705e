-- Check-in at the door: 1 checked in, 2 already checked in (o_at, o_by: the first), 4 not an active
-- booking at this place any more (the citizen's cancel came first). The hot row is locked as
-- slots_cancel locks it, so against a racing cancel exactly one wins and the other sees it.
-- A check-in that holds writes its audit trail entry (p_action: check-in or no-show-override) in the same transaction.
DROP FUNCTION IF EXISTS staff_check_in(text, integer, text, bigint); -- the signature before the trail entry moved in here
CREATE OR REPLACE FUNCTION staff_check_in(p_code text, p_place integer, p_by text, p_now bigint, p_action text,
    OUT o_status integer, OUT o_at bigint, OUT o_by text)
LANGUAGE plpgsql AS $$
DECLARE
    r hot_reservations%ROWTYPE;
BEGIN
    SELECT * INTO r FROM hot_reservations WHERE code = p_code AND place_id = p_place FOR UPDATE;
    SELECT a.at, a.by INTO o_at, o_by FROM attendance a WHERE a.code = p_code AND a.state = 2;
    IF FOUND THEN
        o_status := 2;
        RETURN;
    END IF;
    IF r.code IS NULL THEN
        o_status := 4;
        RETURN;
    END IF;
    -- Over a no-show (state 3, marked after the slot's end and grace) the late arrival's check-in replaces it.
    INSERT INTO attendance (code, place_id, day, state, at, by) VALUES (r.code, r.place_id, r.day, 2, p_now, p_by)
    ON CONFLICT (code) DO UPDATE SET state = 2, at = EXCLUDED.at, by = EXCLUDED.by WHERE attendance.state = 3;
    INSERT INTO staff_audit (at, actor, place_id, action, target) VALUES (p_now, p_by, p_place, p_action, p_code);
    o_status := 1;
    o_at := p_now;
    o_by := p_by;
END;
$$;
