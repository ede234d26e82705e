-- Gives a seat back when its booking is cancelled or moved away. A seat of a slot the site closed
-- (slots.closed_by) goes with its booking instead of opening again: a closed slot takes no booking.
-- While someone on the place's waiting list wants that day, the seat is kept for the line (hold 1,
-- no offer): the waiting-list job offers it to the first of them, and nobody else can take it meanwhile.
CREATE OR REPLACE FUNCTION slots_release_seat(p_place integer, p_day date, p_minute integer, p_service integer, p_seat integer,
                                              p_code text)
RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    IF EXISTS (SELECT 1 FROM slots s WHERE s.place_id = p_place AND s.day = p_day AND s.start_minute = p_minute
               AND s.service_id = p_service AND s.closed_by IS NOT NULL) THEN
        DELETE FROM hot_seats
        WHERE place_id = p_place AND day = p_day AND start_minute = p_minute AND service_id = p_service AND seat_no = p_seat
          AND code = p_code;
    ELSE
        UPDATE hot_seats SET code = NULL, hold = CASE WHEN EXISTS (
                SELECT 1 FROM waitlist w WHERE w.place_id = p_place AND w.state = 1 AND p_day BETWEEN w.from_day AND w.to_day)
            THEN 1 ELSE 0 END
        WHERE place_id = p_place AND day = p_day AND start_minute = p_minute AND service_id = p_service AND seat_no = p_seat
          AND code = p_code;
    END IF;
END;
$$;
