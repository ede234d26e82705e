-- Drains at most p_batch pending changes into reservations and returns how many. One call is one
-- short transaction. Two sources, each in id order:
--   1. change records (cancels, reschedules, a booking whose hot row went before its flush): the
--      rows are locked and read once, applied in id order, and exactly those ids are deleted: a
--      change that commits meanwhile with a lower id (identities can commit out of order) is not
--      deleted unseen, it waits for the next call. Changes of one code cannot commit out of order:
--      they lock the same hot row;
--   2. new bookings, which are their own change record (flush_pending on the hot row): written
--      to the disk only where it has no row for the code yet, so a later change applied first is
--      never undone; the rows are taken SKIP LOCKED (one being cancelled or checked in waits for
--      the next call) and their mark cleared. A booking whose seat the disk still gives to another
--      active booking (whose cancel or move this call did not see) waits for the next call too.
CREATE OR REPLACE FUNCTION slots_flush_changes(p_batch integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    c       changes%ROWTYPE;
    v_ids   bigint[] := '{}';
    v_codes text[];
BEGIN
    FOR c IN SELECT * FROM changes ORDER BY id LIMIT p_batch FOR UPDATE LOOP
        -- The change carries the whole reservation: applying it is an upsert of that state.
        -- updated_at keeps a row from going back to an older state if it is ever applied twice;
        -- a booking (kind 1) only ever creates the row.
        INSERT INTO reservations AS r (code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name,
                                       language, created_at, cancelled_at, updated_at)
        VALUES (c.code, c.place_id, c.day, c.start_minute, c.service_id, c.seat_no, c.person_hash, c.phone, c.name,
                c.language, c.created_at, CASE WHEN c.kind = 2 THEN c.at END, c.at)
        ON CONFLICT (code) DO UPDATE SET place_id = excluded.place_id, day = excluded.day,
            start_minute = excluded.start_minute, service_id = excluded.service_id, seat_no = excluded.seat_no,
            person_hash = excluded.person_hash,
            phone = excluded.phone, name = excluded.name, language = excluded.language,
            created_at = excluded.created_at, cancelled_at = excluded.cancelled_at, updated_at = excluded.updated_at
        WHERE r.updated_at <= excluded.updated_at AND c.kind <> 1;
        v_ids := v_ids || c.id;
    END LOOP;
    DELETE FROM changes WHERE id = ANY (v_ids);

    IF cardinality(v_ids) < p_batch THEN
        WITH pending AS (
            SELECT h.code, h.place_id, h.day, h.start_minute, h.service_id, h.seat_no, h.person_hash, h.phone, h.name,
                   h.language, h.created_at
            FROM hot_reservations h
            WHERE h.flush_pending
              -- The seat's previous holder may still be active on disk: its cancel or move committed
              -- after the loop above read the changes (each statement sees the commits before it), so
              -- it waits for the next call; the new booking waits with it rather than break the disk's
              -- one-booking-per-seat index.
              AND NOT EXISTS (SELECT 1 FROM reservations r
                              WHERE r.place_id = h.place_id AND r.day = h.day AND r.start_minute = h.start_minute
                                AND r.service_id = h.service_id AND r.seat_no = h.seat_no
                                AND r.cancelled_at IS NULL AND r.code <> h.code)
            ORDER BY h.event_id
            LIMIT p_batch - cardinality(v_ids)
            FOR UPDATE SKIP LOCKED),
        written AS (
            INSERT INTO reservations (code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name,
                                      language, created_at, cancelled_at, updated_at)
            SELECT p.code, p.place_id, p.day, p.start_minute, p.service_id, p.seat_no, p.person_hash, p.phone, p.name,
                   p.language, p.created_at, NULL, p.created_at
            FROM pending p
            ON CONFLICT (code) DO NOTHING)
        SELECT array_agg(p.code) INTO v_codes FROM pending p;
        UPDATE hot_reservations SET flush_pending = false WHERE code = ANY (v_codes);
    END IF;
    RETURN cardinality(v_ids) + coalesce(cardinality(v_codes), 0);
END;
$$;
