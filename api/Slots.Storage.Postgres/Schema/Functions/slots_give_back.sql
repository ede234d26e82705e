-- The first seats and person rows of p_ids (operations of a slots_apply batch that got both, and
-- then lost the booking: a pair without a second seat, a code another person bound first) given
-- back, in slots_apply's transaction; answers the batch's seated operations and their seats without them.
CREATE OR REPLACE FUNCTION slots_give_back(p_ids integer[], p_seated integer[], p_seats integer[], p_place integer[], p_day date[],
                                           p_minute integer[], p_service integer[], p_person text[], p_code text[],
                                           OUT seated integer[], OUT seats integer[])
LANGUAGE plpgsql AS $$
BEGIN
    UPDATE hot_seats f SET code = NULL
    FROM unnest(p_seated, p_seats) AS s(t, seat_no)
    WHERE s.t = ANY (p_ids) AND f.place_id = p_place[s.t] AND f.day = p_day[s.t] AND f.start_minute = p_minute[s.t]
      AND f.service_id = p_service[s.t] AND f.seat_no = s.seat_no AND f.code = p_code[s.t];
    DELETE FROM active_persons ap
    USING unnest(p_ids) AS t
    WHERE ap.person_hash = p_person[t] AND ap.service_id = p_service[t] AND ap.code = p_code[t];
    SELECT coalesce(array_agg(s.t ORDER BY s.o), '{}'), coalesce(array_agg(s.seat_no ORDER BY s.o), '{}')
    INTO seated, seats
    FROM unnest(p_seated, p_seats) WITH ORDINALITY AS s(t, seat_no, o)
    WHERE s.t <> ALL (p_ids);
END;
$$;
