-- The second doses of the pairs in a batch (issue 41 item 3), inside slots_apply after the first
-- doses' seats, so both seats of a pair commit together or not at all. For each operation of p_ops
-- (the seated first doses that have a second, in batch order): the earliest free seat of the same
-- service at the place from p_day2_from to p_day2_to at p_minute2:
--   * hot days first (they all come before the horizon): one update takes the seat, skipping seats
--     other transactions hold (SKIP LOCKED, as the first doses' waves); the second dose's hot row is
--     written with no SMS of its own (one confirms both) and its flush mark;
--   * else disk days, from the place's horizon on, read under the place's row lock (shared: the
--     window mover takes it exclusively, so no day turns hot half-way); each candidate slot's row is
--     locked in day order, as the cold path locks it, and its lowest seat without an active
--     reservation taken; the reservation is written on disk, where the cold path would write it.
-- The pairs are taken in the order of the disk slots they may lock (place, service, time, first day),
-- not in the batch's, and each pair's candidate slots in day order: every transaction that seats
-- second doses takes those rows in one order, so two batches cannot deadlock on each other's slots.
-- (In the batch's order, two instances' batches whose pairs lay the other way round did: one waited
-- out deadlock_timeout, a second, and was retried.) The pair is linked in
-- dose_pairs and the person's row held until the second dose ends (the one-booking rule counts the
-- pair once). o_failed lists the pairs that found no seat: slots_apply gives their first seat and
-- person row back and answers them second dose full. o_day2 and o_minutes2 are indexed as p_ops's
-- elements are (the operations' own numbers).
CREATE OR REPLACE FUNCTION slots_seat_second_doses(
    p_ops integer[], p_place integer[], p_service integer[], p_person text[], p_phone text[], p_name text[], p_language text[],
    p_code text[], p_code2 text[], p_day2_from date[], p_day2_to date[], p_minute2 integer[], p_now bigint[],
    OUT o_failed integer[], OUT o_day2 date[], OUT o_minutes2 integer[])
LANGUAGE plpgsql AS $$
DECLARE
    t          integer;
    s          record;
    v_horizon  date;
    v_seat     integer;
    v_day      date;
    v_minutes  integer;
    v_ends     bigint;
    v_order    integer[];
BEGIN
    o_failed := '{}';
    SELECT array_agg(u.t ORDER BY p_place[u.t], p_service[u.t], p_minute2[u.t], p_day2_from[u.t], u.t) INTO v_order
    FROM unnest(p_ops) AS u(t);
    FOREACH t IN ARRAY coalesce(v_order, '{}') LOOP
        v_day := NULL;
        -- The pick in a CTE: evaluated once (a subquery in FROM may be scanned again per row).
        WITH f AS (
            SELECT f.day, f.seat_no FROM hot_seats f
            WHERE f.place_id = p_place[t] AND f.service_id = p_service[t] AND f.start_minute = p_minute2[t]
              AND f.day BETWEEN p_day2_from[t] AND p_day2_to[t] AND f.code IS NULL AND f.hold = 0 AND f.starts_at > p_now[t]
            ORDER BY f.day, f.seat_no
            LIMIT 1
            FOR UPDATE SKIP LOCKED)
        UPDATE hot_seats h SET code = p_code2[t]
        FROM f
        WHERE h.place_id = p_place[t] AND h.day = f.day AND h.start_minute = p_minute2[t] AND h.service_id = p_service[t]
          AND h.seat_no = f.seat_no
        RETURNING h.day, h.seat_no, h.minutes, h.starts_at INTO s;
        IF FOUND THEN
            v_day := s.day;
            v_minutes := s.minutes;
            v_ends := s.starts_at + s.minutes * 60;
            INSERT INTO hot_reservations (code, place_id, day, start_minute, service_id, seat_no, minutes, starts_at,
                                          person_hash, phone, name, language, created_at,
                                          idem_key, fingerprint, event_id, sms_pending, flush_pending)
            VALUES (p_code2[t], p_place[t], s.day, p_minute2[t], p_service[t], s.seat_no, s.minutes, s.starts_at,
                    p_person[t], p_phone[t], p_name[t], p_language[t], p_now[t], NULL, NULL, NULL, false, true);
        ELSE
            SELECT p.hot_until INTO v_horizon FROM places p WHERE p.id = p_place[t] FOR SHARE;
            FOR s IN
                SELECT sl.day, sl.minutes, sl.starts_at, sl.capacity FROM slots sl
                WHERE sl.place_id = p_place[t] AND sl.service_id = p_service[t] AND sl.start_minute = p_minute2[t]
                  AND sl.day BETWEEN greatest(p_day2_from[t], v_horizon) AND p_day2_to[t]
                  AND sl.closed_by IS NULL AND sl.starts_at > p_now[t]
                ORDER BY sl.day
                FOR UPDATE
            LOOP
                SELECT min(n) INTO v_seat
                FROM generate_series(1, s.capacity) AS n
                WHERE NOT EXISTS (SELECT 1 FROM reservations r
                                  WHERE r.place_id = p_place[t] AND r.day = s.day AND r.start_minute = p_minute2[t]
                                    AND r.service_id = p_service[t] AND r.seat_no = n AND r.cancelled_at IS NULL);
                IF v_seat IS NOT NULL THEN
                    v_day := s.day;
                    v_minutes := s.minutes;
                    v_ends := s.starts_at + s.minutes * 60;
                    INSERT INTO reservations (code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name,
                                              language, created_at, cancelled_at, updated_at)
                    VALUES (p_code2[t], p_place[t], s.day, p_minute2[t], p_service[t], v_seat, p_person[t], p_phone[t], p_name[t],
                            p_language[t], p_now[t], NULL, p_now[t]);
                    EXIT;
                END IF;
            END LOOP;
        END IF;
        IF v_day IS NULL THEN
            o_failed := o_failed || t;
        ELSE
            o_day2[t] := v_day;
            o_minutes2[t] := v_minutes;
            INSERT INTO dose_pairs (first_code, second_code, service_id, created_at) VALUES (p_code[t], p_code2[t], p_service[t], p_now[t]);
            UPDATE active_persons SET ends_at = v_ends
            WHERE person_hash = p_person[t] AND service_id = p_service[t] AND code = p_code[t];
        END IF;
    END LOOP;
END;
$$;
