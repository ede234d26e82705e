-- Invitation codes spent by the bookings they made eligible (issue 41, D5), after slots_apply's
-- seats and in its transaction: one statement for the batch over p_ops (the operations that got a
-- seat). Answers the operations whose code another booking had spent or bound first; slots_apply
-- gives their seat and person row back and answers them NotEligible.
-- Until invitation codes land, no booking brings one and nothing is spent.
CREATE OR REPLACE FUNCTION slots_spend_invitations(p_ops integer[], p_service integer[], p_person text[], p_invite text[],
                                                   p_code text[], p_now bigint[])
RETURNS integer[] LANGUAGE sql STABLE AS $$
    SELECT '{}'::integer[]
$$;
