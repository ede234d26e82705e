-- Who may book a service (issue 41, D4), decided in slots_apply_decide's one read, in the same
-- transaction as the seat: 0 when the person may book, else the reason of the refusal (the batch
-- answers NotEligible with it as o_detail, writes nothing and remembers no key, as a slot full).
-- p_birth is the birth date read from the person's birth number (NULL when there is none): a
-- parameter only, never stored. p_invite is the hash of the invitation code the request brought.
-- Until the eligibility rules land, everyone may book every service. A single-SELECT SQL function
-- the planner inlines into the read, so the answer costs nothing per booking.
CREATE OR REPLACE FUNCTION slots_eligibility(p_service integer, p_person text, p_birth date, p_invite text, p_now bigint)
RETURNS integer LANGUAGE sql STABLE AS $$
    SELECT 0
$$;
