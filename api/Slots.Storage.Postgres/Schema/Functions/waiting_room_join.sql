-- A batch of joins to one opening, in one statement: seals the pre-queue first when the opening
-- time has come, then gives each new person the next ticket and each known one theirs, in the
-- order of p_persons. The opening's row lock makes batches from any number of instances take
-- tickets one batch at a time. No rows when the opening is not open.
CREATE OR REPLACE FUNCTION waiting_room_join(p_opening bigint, p_persons text[], p_now bigint, p_shuffle bytea)
RETURNS TABLE (o_ticket bigint, o_new boolean)
LANGUAGE plpgsql AS $$
DECLARE
    v_joined bigint;
    v_person text;
BEGIN
    UPDATE waiting_room_openings SET pre_queue = joined, shuffle_key = p_shuffle, version = version + 1
    WHERE id = p_opening AND pre_queue IS NULL AND opens_at <= p_now AND state = 1;
    SELECT o.joined INTO v_joined FROM waiting_room_openings o WHERE o.id = p_opening AND o.state = 1 FOR UPDATE;
    IF NOT FOUND THEN
        RETURN;
    END IF;
    FOREACH v_person IN ARRAY p_persons LOOP
        INSERT INTO waiting_room_joins (opening_id, person_hash, ticket, joined_at)
        VALUES (p_opening, v_person, v_joined + 1, p_now)
        ON CONFLICT (opening_id, person_hash) DO NOTHING;
        IF FOUND THEN
            v_joined := v_joined + 1;
            o_ticket := v_joined;
            o_new := true;
        ELSE
            SELECT j.ticket INTO o_ticket FROM waiting_room_joins j WHERE j.opening_id = p_opening AND j.person_hash = v_person;
            o_new := false;
        END IF;
        RETURN NEXT;
    END LOOP;
    UPDATE waiting_room_openings SET joined = v_joined WHERE id = p_opening;
END $$;
