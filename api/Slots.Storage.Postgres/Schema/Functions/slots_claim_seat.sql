-- Takes the lowest free seat of a service's slot that has not started; all NULL when none is free.
-- SKIP LOCKED: racers on one slot each take a different free seat instead of queueing behind
-- the first one's row lock; a seat another transaction committed meanwhile is re-checked
-- (code IS NULL AND hold = 0: nobody's booking, not held back for the waiting list) on its newest
-- version before it is locked. plpgsql, not sql: its plans are cached per connection, where a
-- non-inlined sql function is planned on every call.
CREATE OR REPLACE FUNCTION slots_claim_seat(p_place integer, p_day date, p_minute integer, p_service integer, p_code text, p_now bigint,
                                 OUT o_seat integer, OUT o_minutes integer, OUT o_starts bigint)
LANGUAGE plpgsql AS $$
BEGIN
    -- A scalar subquery runs once (an InitPlan); UPDATE … FROM (… LIMIT 1) may be rescanned per row.
    UPDATE hot_seats s SET code = p_code
    WHERE s.place_id = p_place AND s.day = p_day AND s.start_minute = p_minute AND s.service_id = p_service
      AND s.seat_no = (SELECT f.seat_no FROM hot_seats f
                       WHERE f.place_id = p_place AND f.day = p_day AND f.start_minute = p_minute AND f.service_id = p_service
                         AND f.code IS NULL AND f.hold = 0 AND f.starts_at > p_now
                       ORDER BY f.seat_no
                       LIMIT 1
                       FOR UPDATE SKIP LOCKED)
    RETURNING s.seat_no, s.minutes, s.starts_at INTO o_seat, o_minutes, o_starts;
END;
$$;
