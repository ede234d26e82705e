-- Drains at most p_batch change records into reservations, oldest first, and returns how many.
-- One call is one short transaction. The rows are locked and read once, applied in id order,
-- and exactly those ids are deleted: a change that commits meanwhile with a lower id (identities
-- can commit out of order) is not deleted unseen, it waits for the next call. Changes of one
-- code cannot commit out of order: they lock the same hot row.
CREATE OR REPLACE FUNCTION slots_flush_changes(p_batch integer)
RETURNS integer LANGUAGE plpgsql AS $$
DECLARE
    c     changes%ROWTYPE;
    v_ids bigint[] := '{}';
BEGIN
    FOR c IN SELECT * FROM changes ORDER BY id LIMIT p_batch FOR UPDATE LOOP
        -- The change carries the whole reservation: applying it is an upsert of that state.
        -- updated_at keeps a row from going back to an older state if it is ever applied twice.
        INSERT INTO reservations AS r (code, place_id, day, start_minute, seat_no, person_hash, phone, name, language,
                                       created_at, cancelled_at, updated_at)
        VALUES (c.code, c.place_id, c.day, c.start_minute, c.seat_no, c.person_hash, c.phone, c.name, c.language,
                c.created_at, CASE WHEN c.kind = 2 THEN c.at END, c.at)
        ON CONFLICT (code) DO UPDATE SET place_id = excluded.place_id, day = excluded.day,
            start_minute = excluded.start_minute, seat_no = excluded.seat_no, person_hash = excluded.person_hash,
            phone = excluded.phone, name = excluded.name, language = excluded.language,
            created_at = excluded.created_at, cancelled_at = excluded.cancelled_at, updated_at = excluded.updated_at
        WHERE r.updated_at <= excluded.updated_at;
        v_ids := v_ids || c.id;
    END LOOP;
    DELETE FROM changes WHERE id = ANY (v_ids);
    RETURN cardinality(v_ids);
END;
$$;

