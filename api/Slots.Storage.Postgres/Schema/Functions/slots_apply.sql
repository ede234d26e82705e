-- Group commit: the operations an API instance gathered while its previous batch was in flight,
-- in one call, one transaction, one round trip; one result row per operation, in order.
-- p_op: 1 reserve, 2 cancel, 3 reschedule. A slot is (p_place, p_day, p_minute, p_service); a
-- reschedule stays within its booking's service. For reserve, p_phone/p_person are the contact and
-- the person; for cancel and reschedule they are the proof (either may be NULL). o_minutes is the
-- reserved slot's length, so the 201 needs nothing read back.
-- The campaign's arrays, NULL (or NULL elements) where a booking does not use them:
--   p_birth, p_invite: the birth date read from the birth number and the invitation code's hash,
--   for who may book, judged in step 3 (o_status 11 NotEligible with its reason in o_detail);
--   p_code2, p_day2_from, p_day2_to, p_minute2: a pair's second dose, for slots_seat_second_doses
--   (o_code2, o_day2, o_minute2, o_minutes2: where it was seated, and the slot's length);
--   p_by, p_sms: a booking made by site staff and whether it sends its SMS, for slots_write_walk_ins.
-- Eligibility is decided in step 3, second doses are seated after step 5 (5a), invitation codes
-- are spent after that (5b), and step 6 writes the audit row of bookings staff made
-- (slots_write_walk_ins) and no SMS where they chose none.
--
-- Reservations are decided set-based: a fixed handful of statements per batch, whatever its size,
-- instead of a dozen statements per booking. In order:
--   1. cancels and reschedules, one at a time (rare in a stampede); reservations after them see
--      the seats they freed;
--   2. the batch's idempotency keys are locked (transaction advisory locks on their hashes, in
--      hash order), so a racer with the same key in another batch waits for this commit and then
--      reads its answer, as it used to wait on the key row's index entry;
--   3. one read decides what needs no write (slots_apply_decide): a replay (the key is known),
--      "slot full" (the slot is open, no seat is free and the person holds nothing: NOTHING is
--      written), "not eligible" (nothing written either), unknown slot, slot started, or a person
--      already holding a reservation of the service;
--   4. one upsert claims the person rows of those left (in person and service order, the lock
--      order of every batch); a person another transaction holds answers "already booked";
--   5. one update per wave claims seats: wave k takes a seat for the k-th operation on each slot,
--      skipping seats other transactions have locked (SKIP LOCKED, as slots_claim_seat); nearly
--      always one wave. A person left without a seat gets its person row back and "slot full";
--   5a. the second doses of the seated pairs (slots_seat_second_doses): the earliest free seat in
--      each pair's range, hot or on disk, in this transaction; a pair without one gives its first
--      seat and person row back and is answered "second dose full", writing nothing;
--   5b. the invitation codes that admitted their bookings are spent (slots_spend_invitations); a
--      booking whose code another person bound first gives its seat and person row back and is
--      answered "not eligible" (invitation used), writing nothing;
--   6. one statement writes the reservation of every booking, and the key with its answer of
--      everything else decided. A booking's reservation row carries its key, its confirmation SMS
--      (event_id, sms_pending) and its change record for the flush (flush_pending).
-- An operation whose key or person (for the same service) came earlier in the same batch, or whose
-- holder cancelled between step 4's two reads, is decided afterwards as a batch of its own (a
-- nested call), which sees this batch's writes: it behaves as a racer that came just after. One
-- body of the rules, no second copy: a nested call nests again only when the person's holder
-- cancels between those two reads once more, a race each time.
--
-- Writes per new booking: the seat, the person row and the reservation (three rows); a pair adds
-- its second seat and reservation and the link; a slot full writes nothing.
CREATE OR REPLACE FUNCTION slots_apply(
    p_op integer[], p_place integer[], p_day date[], p_minute integer[], p_service integer[],
    p_person text[], p_phone text[], p_name text[], p_language text[],
    p_code text[], p_key text[], p_fingerprint text[], p_now bigint[],
    p_birth date[], p_invite text[],
    p_code2 text[], p_day2_from date[], p_day2_to date[], p_minute2 integer[],
    p_by text[], p_sms boolean[])
RETURNS TABLE (o_status integer, o_code text, o_replayed boolean, o_minutes integer,
               o_detail integer, o_code2 text, o_day2 date, o_minute2 integer, o_minutes2 integer)
LANGUAGE plpgsql
-- One plan per statement and session, for this call and the functions it calls. Planned with the
-- arrays' values, a statement over generate_series(1, n) or the arrays' elements looks cheaper than
-- its generic plan every time, so the plan cache planned it again at every call: 3.2 s of planning
-- against 23 s of execution in 20 s of pairs (the second dose's seat search), 0.9 against 16 on the
-- real path. The generic plans read by the same indexes; statistics that change
-- (PostgresStatistics) still make every session plan again.
SET plan_cache_mode = force_generic_plan
AS $$
DECLARE
    n          integer := coalesce(array_length(p_op, 1), 0);
    v_status   integer[] := array_fill(NULL::integer, ARRAY[n]);
    v_code     text[] := array_fill(NULL::text, ARRAY[n]);
    v_replayed boolean[] := array_fill(false, ARRAY[n]);
    v_minutes  integer[] := array_fill(0, ARRAY[n]);
    v_starts   bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    v_ends     bigint[] := array_fill(NULL::bigint, ARRAY[n]);
    v_detail   integer[] := array_fill(NULL::integer, ARRAY[n]);
    v_code2    text[] := array_fill(NULL::text, ARRAY[n]);
    v_day2     date[] := array_fill(NULL::date, ARRAY[n]);
    v_minutes2 integer[] := array_fill(NULL::integer, ARRAY[n]);
    v_later    integer[];      -- left to a nested call each, in batch order
    v_try      integer[];      -- operations that go for a person row (step 4)
    v_mine     integer[];      -- operations that got their person row
    v_seated   integer[] := '{}';   -- operations that got a seat
    v_seats    integer[] := '{}';
    v_ids      integer[];
    v_vals     integer[];
    v_now      bigint;
    v_wave     integer;
    v_waves    integer;
    i          integer;
    j          integer;
    r          record;
BEGIN
    FOR i IN 1 .. n LOOP
        IF p_op[i] = 2 THEN
            v_status[i] := slots_cancel(p_code[i], p_phone[i], p_person[i], p_now[i]);
        ELSIF p_op[i] = 3 THEN
            v_status[i] := slots_reschedule(p_code[i], p_phone[i], p_person[i], p_place[i], p_day[i], p_minute[i], p_now[i]);
        END IF;
    END LOOP;

    -- 2. Keys locked in one order across batches (slots_lock_keys).
    PERFORM slots_lock_keys(ARRAY(SELECT u.key FROM unnest(p_op, p_key) AS u(op, key) WHERE u.op = 1));

    -- The operations a set can decide: the first of their key and of their person in the batch.
    SELECT array_agg(b.ord ORDER BY b.ord) FILTER (WHERE b.first_key > 1 OR b.first_person > 1),
           max(b.now)
    INTO v_later, v_now
    FROM (SELECT u.ord, u.now,
                 row_number() OVER (PARTITION BY u.key ORDER BY u.ord) AS first_key,
                 row_number() OVER (PARTITION BY u.person, u.service ORDER BY u.ord) AS first_person
          FROM unnest(p_op, p_key, p_person, p_service, p_now) WITH ORDINALITY AS u(op, key, person, service, now, ord)
          WHERE u.op = 1) b;
    IF v_now IS NULL THEN
        RETURN QUERY SELECT v_status[k], v_code[k], v_replayed[k], v_minutes[k], NULL::integer, NULL::text, NULL::date, NULL::integer,
                            NULL::integer
                     FROM generate_series(1, n) k;
        RETURN;
    END IF;
    v_later := coalesce(v_later, '{}');

    -- 3. What one read decides, for the whole batch at once (slots_apply_decide): -1 goes for a
    -- person row (listed in v_try), -2 slot full and -11 not eligible (nothing to remember).
    SELECT d.o_status, d.o_code, d.o_replayed, d.o_minutes, d.o_starts, d.o_ends, d.o_detail, d.o_try
    INTO v_status, v_code, v_replayed, v_minutes, v_starts, v_ends, v_detail, v_try
    FROM slots_apply_decide(p_op, p_place, p_day, p_minute, p_service, p_person, p_phone, p_key, p_fingerprint, p_now,
                            p_birth, p_invite, v_status, v_later) d;

    -- 4. Person rows, in person and service order; a stale row (its reservation over) is simply replaced.
    IF cardinality(v_try) > 0 THEN
        WITH claimed AS (
            INSERT INTO active_persons AS ap (person_hash, service_id, code, ends_at)
            SELECT p_person[t], p_service[t], p_code[t], v_ends[t] FROM unnest(v_try) AS t ORDER BY p_person[t], p_service[t]
            ON CONFLICT (person_hash, service_id) DO UPDATE SET code = excluded.code, ends_at = excluded.ends_at
            WHERE ap.ends_at <= v_now
            RETURNING ap.code)
        SELECT array_agg(t) INTO v_mine
        FROM unnest(v_try) AS t WHERE p_code[t] IN (SELECT c.code FROM claimed c);
        v_mine := coalesce(v_mine, '{}');

        -- Held by another transaction that committed meanwhile: already booked.
        IF cardinality(v_mine) < cardinality(v_try) THEN
            FOR r IN
                SELECT t AS ord, h.code, h.same_phone
                FROM unnest(v_try) AS t
                LEFT JOIN LATERAL (SELECT ap.code, COALESCE(hr.phone, dr.phone) = p_phone[t] AS same_phone
                                   FROM active_persons ap
                                   LEFT JOIN hot_reservations hr ON hr.code = ap.code
                                   LEFT JOIN reservations dr ON dr.code = ap.code
                                   WHERE ap.person_hash = p_person[t] AND ap.service_id = p_service[t]
                                     AND ap.ends_at > p_now[t]) h ON true
                WHERE t <> ALL (v_mine)
            LOOP
                IF r.code IS NULL THEN
                    v_later := v_later || r.ord;   -- the holder cancelled in between: ask again
                ELSE
                    v_status[r.ord] := 3;
                    v_code[r.ord] := CASE WHEN r.same_phone THEN r.code END;
                END IF;
            END LOOP;
        END IF;

        -- 5. Seats, wave by wave: the k-th operation on a slot in wave k.
        SELECT array_agg(w.t ORDER BY w.t), array_agg(w.wave ORDER BY w.t), max(w.wave)
        INTO v_ids, v_vals, v_waves
        FROM (SELECT t, row_number() OVER (PARTITION BY p_place[t], p_day[t], p_minute[t], p_service[t] ORDER BY t)::integer AS wave
              FROM unnest(v_mine) AS t) w;
        FOR v_wave IN 1 .. coalesce(v_waves, 0) LOOP
            WITH pick AS (
                SELECT w.t, f.place_id, f.day, f.start_minute, f.service_id, f.seat_no
                FROM unnest(v_ids, v_vals) AS w(t, wave)
                CROSS JOIN LATERAL (
                    SELECT f.place_id, f.day, f.start_minute, f.service_id, f.seat_no FROM hot_seats f
                    WHERE f.place_id = p_place[w.t] AND f.day = p_day[w.t] AND f.start_minute = p_minute[w.t]
                      AND f.service_id = p_service[w.t] AND f.code IS NULL AND f.hold = 0 AND f.starts_at > p_now[w.t]
                    ORDER BY f.seat_no
                    LIMIT 1
                    FOR UPDATE SKIP LOCKED) f
                WHERE w.wave = v_wave),
            taken AS (
                UPDATE hot_seats s SET code = p_code[pick.t]
                FROM pick
                WHERE s.place_id = pick.place_id AND s.day = pick.day AND s.start_minute = pick.start_minute
                  AND s.service_id = pick.service_id AND s.seat_no = pick.seat_no
                RETURNING pick.t, s.seat_no)
            SELECT v_seated || coalesce(array_agg(taken.t), '{}'), v_seats || coalesce(array_agg(taken.seat_no), '{}')
            INTO v_seated, v_seats
            FROM taken;
        END LOOP;

        -- The last seat went to another transaction between the read and the claim: slot full,
        -- and the person row goes back.
        IF cardinality(v_seated) < cardinality(v_mine) THEN
            SELECT array_agg(t) INTO v_ids FROM unnest(v_mine) AS t WHERE t <> ALL (v_seated);
            DELETE FROM active_persons ap
            USING unnest(v_ids) AS t
            WHERE ap.person_hash = p_person[t] AND ap.service_id = p_service[t] AND ap.code = p_code[t];
            FOREACH i IN ARRAY v_ids LOOP
                v_status[i] := -2;
            END LOOP;
        END IF;
        -- 5a. Second doses: a pair without one gives back its first seat and person row.
        SELECT array_agg(t ORDER BY t) INTO v_ids FROM unnest(v_seated) AS t WHERE p_code2[t] IS NOT NULL;
        IF v_ids IS NOT NULL THEN
            SELECT d.o_failed, d.o_day2, d.o_minutes2 INTO v_ids, v_day2, v_minutes2
            FROM slots_seat_second_doses(v_ids, p_place, p_service, p_person, p_phone, p_name, p_language, p_code, p_code2,
                                         p_day2_from, p_day2_to, p_minute2, p_now) d;
            IF cardinality(v_ids) > 0 THEN
                SELECT s.seated, s.seats INTO v_seated, v_seats
                FROM slots_give_back(v_ids, v_seated, v_seats, p_place, p_day, p_minute, p_service, p_person, p_code) s;
                FOREACH i IN ARRAY v_ids LOOP
                    v_status[i] := -12;
                END LOOP;
            END IF;
        END IF;

        -- 5b. Codes spent by the bookings they admitted: those the rule alone would refuse, which step 3
        -- marked with o_detail -1 (judged once there, with the code's row read beside the seat).
        SELECT array_agg(t ORDER BY t) INTO v_ids FROM unnest(v_seated) AS t WHERE v_detail[t] = -1;
        IF v_ids IS NOT NULL THEN
            v_ids := slots_spend_invitations(v_ids, p_service, p_person, p_invite, p_code, p_now);
        END IF;
        IF cardinality(v_ids) > 0 THEN
            SELECT s.seated, s.seats INTO v_seated, v_seats
            FROM slots_give_back(v_ids, v_seated, v_seats, p_place, p_day, p_minute, p_service, p_person, p_code) s;
            FOREACH i IN ARRAY v_ids LOOP
                v_status[i] := -11;
                v_detail[i] := 5;
            END LOOP;
        END IF;

        FOR j IN 1 .. cardinality(v_seated) LOOP
            v_status[v_seated[j]] := 1;
            v_code[v_seated[j]] := p_code[v_seated[j]];
            v_code2[v_seated[j]] := p_code2[v_seated[j]];
        END LOOP;
    END IF;

    -- 6. Everything decided, in one statement: the bookings, each row with its key, SMS and change
    -- record, and the key of every other answer a person must keep seeing (not replays, not key
    -- reuse, not slot full).
    IF cardinality(v_seated) > 0 OR EXISTS (SELECT 1 FROM unnest(v_status) AS s WHERE s > 2) THEN
        WITH booked AS (
            INSERT INTO hot_reservations (code, place_id, day, start_minute, service_id, seat_no, minutes, starts_at,
                                          person_hash, phone, name, language, created_at,
                                          idem_key, fingerprint, event_id, sms_pending, flush_pending)
            SELECT p_code[s.t], p_place[s.t], p_day[s.t], p_minute[s.t], p_service[s.t], s.seat_no, v_minutes[s.t], v_starts[s.t],
                   p_person[s.t], p_phone[s.t], p_name[s.t], p_language[s.t], p_now[s.t],
                   p_key[s.t], p_fingerprint[s.t],
                   -- No SMS chosen (a walk-in): no message at all, not one marked sent.
                   CASE WHEN coalesce(p_sms[s.t], true) THEN nextval('outbox_id_seq') END, coalesce(p_sms[s.t], true), true
            FROM unnest(v_seated, v_seats) AS s(t, seat_no) ORDER BY s.t)
        INSERT INTO idempotency (key, fingerprint, outcome, code, created_at)
        SELECT p_key[t], p_fingerprint[t], v_status[t], v_code[t], p_now[t]
        FROM generate_series(1, n) AS t
        WHERE p_op[t] = 1 AND v_status[t] > 2 AND NOT v_replayed[t] AND t <> ALL (v_later);
        IF p_by IS NOT NULL THEN
            PERFORM slots_write_walk_ins(v_seated, p_place, p_code, p_by, p_sms, p_now);
        END IF;
    END IF;

    -- The rest, one at a time, after everything above: each a batch of its own.
    FOREACH i IN ARRAY v_later LOOP
        SELECT * INTO r
        FROM slots_apply(ARRAY[p_op[i]], ARRAY[p_place[i]], ARRAY[p_day[i]], ARRAY[p_minute[i]], ARRAY[p_service[i]],
                         ARRAY[p_person[i]], ARRAY[p_phone[i]], ARRAY[p_name[i]], ARRAY[p_language[i]],
                         ARRAY[p_code[i]], ARRAY[p_key[i]], ARRAY[p_fingerprint[i]], ARRAY[p_now[i]],
                         ARRAY[p_birth[i]], ARRAY[p_invite[i]],
                         ARRAY[p_code2[i]], ARRAY[p_day2_from[i]], ARRAY[p_day2_to[i]], ARRAY[p_minute2[i]],
                         ARRAY[p_by[i]], ARRAY[p_sms[i]]) AS a;
        v_status[i] := r.o_status;
        v_code[i] := r.o_code;
        v_replayed[i] := r.o_replayed;
        v_minutes[i] := r.o_minutes;
        v_detail[i] := r.o_detail;
        v_code2[i] := r.o_code2;
        v_day2[i] := r.o_day2;
        v_minutes2[i] := r.o_minutes2;
    END LOOP;

    -- Negative: decided with nothing to remember (-2 slot full, -11 not eligible, -12 second dose full).
    -- A detail is a refusal's reason; step 3's -1 (admitted by the code) is this function's own.
    RETURN QUERY
    SELECT abs(v_status[k]), v_code[k], v_replayed[k], v_minutes[k], CASE WHEN v_detail[k] > 0 THEN v_detail[k] END, v_code2[k], v_day2[k],
           CASE WHEN v_code2[k] IS NOT NULL THEN p_minute2[k] END, v_minutes2[k]
    FROM generate_series(1, n) AS k;
END;
$$;
