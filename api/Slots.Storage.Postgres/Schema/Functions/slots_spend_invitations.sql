-- Invitation codes spent by the bookings they made eligible (issue 41, D5), after slots_apply's
-- seats and in its transaction. p_ops are the operations that got a seat and whose person the rule
-- alone would refuse, so their code is what admits them. Each code binds to its person (and moves
-- to the new booking when the same person books again after a cancel); the first operation of the
-- batch per code goes for it. The codes are locked in hash order first, so two batches spending
-- the same codes wait on one another instead of deadlocking; a racer that bound a code first, or a
-- revocation that came meanwhile, leaves the row unmatched. Answers the operations that lost:
-- slots_apply gives their seat and person row back and answers them NotEligible (invitation used).
CREATE OR REPLACE FUNCTION slots_spend_invitations(p_ops integer[], p_service integer[], p_person text[], p_invite text[],
                                                   p_code text[], p_now bigint[])
RETURNS integer[] LANGUAGE plpgsql AS $$
DECLARE
    v_lost integer[];
BEGIN
    -- One statement: the codes are locked in hash order before the update reaches any of them (the
    -- update's filter reads the locked set whole first, or walks it in order), and the operations
    -- whose code was not spent are the answer.
    WITH locked AS (
        SELECT c.hash FROM invitation_codes c
        WHERE c.hash IN (SELECT p_invite[t] FROM unnest(p_ops) AS t)
        ORDER BY c.hash
        FOR UPDATE),
    wanted AS (
        SELECT DISTINCT ON (p_invite[t]) t FROM unnest(p_ops) AS t ORDER BY p_invite[t], t),
    spent AS (
        UPDATE invitation_codes c
        SET person_hash = p_person[w.t], spent_code = p_code[w.t], spent_at = coalesce(c.spent_at, p_now[w.t])
        FROM wanted w
        WHERE c.hash = p_invite[w.t] AND c.hash IN (SELECT l.hash FROM locked l)
          AND c.service_id = p_service[w.t] AND NOT c.revoked
          AND (c.spent_at IS NULL OR c.person_hash = p_person[w.t])
        RETURNING w.t)
    SELECT coalesce(array_agg(t ORDER BY t), '{}') INTO v_lost
    FROM unnest(p_ops) AS t WHERE t NOT IN (SELECT s.t FROM spent s);
    RETURN v_lost;
END;
$$;
