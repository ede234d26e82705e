-- Why no seat of a service's slot could be taken: 4 unknown slot, 5 started, 2 full (ReservationStatus values).
CREATE OR REPLACE FUNCTION slots_probe(p_place integer, p_day date, p_minute integer, p_service integer, p_now bigint)
RETURNS integer LANGUAGE plpgsql STABLE AS $$
DECLARE
    v_starts bigint;
BEGIN
    SELECT MAX(starts_at) INTO v_starts FROM hot_seats
    WHERE place_id = p_place AND day = p_day AND start_minute = p_minute AND service_id = p_service;
    RETURN CASE WHEN v_starts IS NULL THEN 4 WHEN v_starts <= p_now THEN 5 ELSE 2 END;
END;
$$;
