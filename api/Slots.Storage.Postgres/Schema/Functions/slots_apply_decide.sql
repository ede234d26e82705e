-- Step 3 of slots_apply: what one read decides, for the whole batch at once. A slot is a place,
-- a day, a time and a service; a person's active booking is per service. For each reservation
-- that the set can decide (not in p_later), o_status is:
--   a ReservationStatus that needs no seat: a replay (the key is known; 0 when it came with another
--   request), 3 already booked (the same person holds the same service), 4 unknown slot, 5 slot
--   started;
--   -11: not eligible (who may book refused, the reason in o_detail): like a slot full it writes
--   nothing and remembers no key;
--   -2: slot full, the slot is open, no seat is free and the person holds nothing: NOTHING is
--   written, not even the key;
--   -1: goes for a person row and a seat (slots_apply's steps 4 and 5); those are listed in o_try,
--   and o_detail is -1 where only the invitation code admits the person (step 5b spends it).
-- The other operations keep their p_status (a cancel's or a reschedule's answer, or NULL).
-- o_starts and o_minutes are the slot's; o_ends is when a booking made now would end.
--
-- Seats are read before keys: a booking under this key holds a seat, so when every seat was seen
-- taken that booking had committed and its key is visible. An active reservation answers before
-- the slot's state; its code only to the phone that made it.
--
-- Who may book is judged in the same read (refusal): 0 when the person may book by the rule, -1
-- when only the booking's invitation code admits them (the rule alone would refuse: the code is
-- spent with the seat, step 5b of slots_apply), else the refusal's NotEligibleReason: 1 too young,
-- 2 no birth date, 3 invitation required, 4 invitation unknown, 5 invitation used (bound to another
-- person), 6 invitation revoked. p_birth is the birth date read from the person's birth number
-- (NULL when there is none): a parameter only, never stored; p_invite is the keyed hash of the code
-- the booking brought (NULL when none came). The order is EligibilityDecision.For's: everyone; the
-- age rule (the cut-off in force is the greatest born_on_or_before of the steps already open); a
-- valid code where the service takes codes; else the code's own failure, then the rule's.
-- Joined, not a PL/pgSQL function called per operation: each call started an executor of its own.
-- Step 3 of a batch of 16 took 1.17 ms with the calls and 1.01 ms joined on the real path
-- (loadtest/pgbench/rules, docs/benchmarks.md "Who may book, joined").
-- The slot's seats are read once where a seat is free: a first free seat, else any seat, instead of a
-- first seat and a search for a free one (274 against 214 buffers a batch of 16 on the real path,
-- docs/benchmarks.md "Step 3 reads the slot's seats once").
DROP FUNCTION IF EXISTS slots_eligibility(integer, text, date, text, bigint);

CREATE OR REPLACE FUNCTION slots_apply_decide(
    p_op integer[], p_place integer[], p_day date[], p_minute integer[],
    p_service integer[], p_person text[], p_phone text[], p_key text[], p_fingerprint text[], p_now bigint[],
    p_birth date[], p_invite text[], p_status integer[], p_later integer[],
    OUT o_status integer[], OUT o_code text[], OUT o_replayed boolean[], OUT o_minutes integer[],
    OUT o_starts bigint[], OUT o_ends bigint[], OUT o_detail integer[], OUT o_try integer[])
LANGUAGE plpgsql AS $$
BEGIN
    SELECT array_agg(coalesce(c.status, p_status[g]) ORDER BY g),
           array_agg(c.code ORDER BY g),
           array_agg(coalesce(c.replayed, false) ORDER BY g),
           array_agg(coalesce(c.minutes, 0) ORDER BY g),
           array_agg(c.starts_at ORDER BY g),
           array_agg(CASE WHEN c.status = -1 THEN c.starts_at + c.minutes * 60::bigint END ORDER BY g),
           array_agg(CASE WHEN c.status = -11 OR (c.status = -1 AND c.refusal < 0) THEN c.refusal END ORDER BY g),
           coalesce(array_agg(g ORDER BY g) FILTER (WHERE c.status = -1), '{}')
    INTO o_status, o_code, o_replayed, o_minutes, o_starts, o_ends, o_detail, o_try
    FROM generate_series(1, coalesce(array_length(p_op, 1), 0)) AS g
    LEFT JOIN (
        SELECT d.ord, d.minutes, d.starts_at, d.refusal,
               CASE WHEN d.key_outcome IS NOT NULL THEN CASE WHEN d.key_fingerprint = d.fingerprint THEN d.key_outcome ELSE 0 END
                    WHEN d.held_code IS NOT NULL THEN 3
                    WHEN d.starts_at IS NULL THEN 4
                    WHEN d.starts_at <= d.now THEN 5
                    WHEN d.refusal > 0 THEN -11
                    WHEN NOT d.free THEN -2
                    ELSE -1 END AS status,
               CASE WHEN d.key_outcome IS NOT NULL THEN CASE WHEN d.key_fingerprint = d.fingerprint THEN d.key_code END
                    WHEN d.held_code IS NOT NULL AND d.same_phone THEN d.held_code END AS code,
               d.key_outcome IS NOT NULL AND d.key_fingerprint = d.fingerprint AS replayed
        FROM (SELECT u.ord::integer AS ord, s.minutes, s.starts_at, u.now, u.fingerprint,
                     coalesce(i.fingerprint, k.fingerprint) AS key_fingerprint,
                     coalesce(i.outcome, CASE WHEN k.code IS NOT NULL THEN 1 END) AS key_outcome,
                     coalesce(i.code, k.code) AS key_code,
                     s.free,
                     e.refusal, h.code AS held_code, h.same_phone
              FROM unnest(p_op, p_place, p_day, p_minute, p_service, p_person, p_phone, p_key, p_fingerprint, p_now,
                          p_birth, p_invite)
                   WITH ORDINALITY AS u(op, place, day, minute, service, person, phone, key, fingerprint, now, birth, invite, ord)
              -- Who may book (issue 41, D4), joined here: a service without a service_eligibility row is open to
              -- everyone; an age rule reads the cut-off in force; a code is read where a rule takes one.
              LEFT JOIN service_eligibility r ON r.service_id = u.service
              LEFT JOIN invitation_codes c ON (r.rule = 2 OR r.accepts_invitations) AND c.hash = u.invite AND c.service_id = u.service
              LEFT JOIN LATERAL (SELECT max(a.born_on_or_before) AS cutoff FROM service_age_steps a
                                 WHERE r.rule = 1 AND a.service_id = u.service AND a.opens_at <= u.now) a ON true
              CROSS JOIN LATERAL (SELECT CASE
                                             WHEN r.service_id IS NULL OR r.rule = 0 THEN 0
                                             WHEN r.rule = 1 AND u.birth <= a.cutoff THEN 0
                                             WHEN (r.rule = 2 OR r.accepts_invitations) AND u.invite IS NOT NULL THEN
                                                 CASE WHEN c.hash IS NULL THEN 4
                                                      WHEN c.revoked THEN 6
                                                      WHEN c.spent_at IS NOT NULL AND c.person_hash IS DISTINCT FROM u.person THEN 5
                                                      ELSE -1 END
                                             WHEN r.rule = 2 THEN 3
                                             WHEN u.birth IS NULL THEN 2
                                             ELSE 1
                                         END AS refusal) e
              -- The slot's length and start, and whether a seat is free, from one descent of the seats' index when
              -- one is (the common case): the first free seat, else any seat of the slot (free false), else none
              -- (unknown slot).
              LEFT JOIN LATERAL ((SELECT s.minutes, s.starts_at, true AS free FROM hot_seats s
                                  WHERE s.place_id = u.place AND s.day = u.day AND s.start_minute = u.minute
                                    AND s.service_id = u.service AND s.code IS NULL AND s.hold = 0 AND s.starts_at > u.now
                                  LIMIT 1)
                                 UNION ALL
                                 (SELECT s.minutes, s.starts_at, false FROM hot_seats s
                                  WHERE s.place_id = u.place AND s.day = u.day AND s.start_minute = u.minute
                                    AND s.service_id = u.service
                                  LIMIT 1)
                                 LIMIT 1) s ON true
              LEFT JOIN idempotency i ON i.key = u.key
              LEFT JOIN hot_reservations k ON k.idem_key = u.key
              LEFT JOIN LATERAL (SELECT ap.code, COALESCE(hr.phone, dr.phone) = u.phone AS same_phone
                                 FROM active_persons ap
                                 LEFT JOIN hot_reservations hr ON hr.code = ap.code
                                 LEFT JOIN reservations dr ON dr.code = ap.code
                                 WHERE ap.person_hash = u.person AND ap.service_id = u.service
                                   AND ap.ends_at > u.now) h ON true
              WHERE u.op = 1 AND u.ord <> ALL (p_later)) d
    ) c ON c.ord = g;
END;
$$;
