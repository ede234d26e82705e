-- A claim of the seat held for a waiting-list entry: o_status 1 booked (o_code: the booking; a claim
-- again answers the same one), 2 no open offer (or none for p_offered_day and p_offered_minute, the
-- offer the claim was made for, when given), 3 the hold expired, 4 the person holds another
-- booking, 5 a two-dose service's second dose found no seat in its range (p_code2, p_day2_from,
-- p_day2_to, p_minute2, NULL for one appointment: slots_apply seats both or neither). The entry's row is locked first, so two claims of one entry take turns and the offer
-- job (which updates open offers) waits for this one. The held seat is freed and booked through
-- slots_apply (a batch of one: the same rules as every booking, the offer's service included) in one
-- sub-transaction, under an Idempotency-Key of the offer's own: if the booking does not happen, the
-- sub-transaction rolls back and the seat stays held.
CREATE OR REPLACE FUNCTION waitlist_claim(p_token text, p_code text, p_now bigint, p_offered_day date, p_offered_minute integer,
    p_code2 text, p_day2_from date, p_day2_to date, p_minute2 integer,
    OUT o_status integer, OUT o_code text, OUT o_place integer, OUT o_day date, OUT o_minute integer, OUT o_minutes integer,
    OUT o_service integer)
LANGUAGE plpgsql AS $$
DECLARE
    w waitlist%ROWTYPE;
    o waitlist_offers%ROWTYPE;
    v_status integer;
    v_code   text;
    v_minutes integer;
    v_replayed boolean;
BEGIN
    SELECT * INTO w FROM waitlist WHERE token = p_token FOR UPDATE;
    IF NOT FOUND THEN
        o_status := 2;
        RETURN;
    END IF;
    SELECT * INTO o FROM waitlist_offers WHERE entry_id = w.id AND state = 2 ORDER BY id DESC LIMIT 1;
    IF FOUND THEN
        o_status := 1;
        o_code := o.code;
        o_place := o.place_id;
        o_day := o.day;
        o_minute := o.start_minute;
        o_service := o.service_id;
        SELECT s.minutes INTO o_minutes FROM slots s
        WHERE s.place_id = o.place_id AND s.day = o.day AND s.start_minute = o.start_minute AND s.service_id = o.service_id;
        RETURN;
    END IF;
    SELECT * INTO o FROM waitlist_offers WHERE entry_id = w.id AND state = 1 ORDER BY id DESC LIMIT 1 FOR UPDATE;
    IF NOT FOUND THEN
        o_status := CASE WHEN w.state = 5 THEN 3 ELSE 2 END;
        RETURN;
    END IF;
    IF o.expires_at <= p_now THEN
        o_status := 3;
        RETURN;
    END IF;
    IF p_offered_day IS NOT NULL AND (o.day, o.start_minute) IS DISTINCT FROM (p_offered_day, p_offered_minute) THEN
        o_status := 2;
        RETURN;
    END IF;
    o_place := o.place_id;
    o_day := o.day;
    o_minute := o.start_minute;
    o_service := o.service_id;
    BEGIN
        UPDATE hot_seats SET hold = 0, offer_id = NULL
        WHERE place_id = o.place_id AND day = o.day AND start_minute = o.start_minute AND service_id = o.service_id
          AND seat_no = o.seat_no AND offer_id = o.id;
        SELECT r.o_status, r.o_code, r.o_minutes, r.o_replayed INTO v_status, v_code, v_minutes, v_replayed
        FROM slots_apply(ARRAY[1], ARRAY[o.place_id], ARRAY[o.day], ARRAY[o.start_minute], ARRAY[o.service_id],
                         ARRAY[w.person_hash], ARRAY[w.phone], ARRAY[w.name], ARRAY[w.language], ARRAY[p_code],
                         ARRAY['waitlist-offer-' || o.id], ARRAY['waitlist-offer'], ARRAY[p_now],
                         NULL, NULL, ARRAY[p_code2], ARRAY[p_day2_from], ARRAY[p_day2_to], ARRAY[p_minute2], NULL, NULL) r;
        IF v_status <> 1 THEN
            RAISE EXCEPTION 'waitlist claim refused';
        END IF;
    EXCEPTION WHEN raise_exception THEN
        o_status := CASE v_status WHEN 3 THEN 4 WHEN 12 THEN 5 ELSE 2 END;
        RETURN;
    END;
    UPDATE waitlist_offers SET state = 2, decided_at = p_now, code = v_code WHERE id = o.id;
    UPDATE waitlist SET state = 3, decided_at = p_now WHERE id = w.id;
    o_status := 1;
    o_code := v_code;
    o_minutes := v_minutes;
END;
$$;
