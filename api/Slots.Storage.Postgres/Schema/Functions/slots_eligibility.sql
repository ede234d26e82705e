-- Who may book a service (issue 41, D4), decided in slots_apply_decide's one read, in the same
-- transaction as the seat: 0 when the person may book by the rule, -1 when only the booking's
-- invitation code admits them (the rule alone would refuse: the code is spent with the seat, step
-- 5b of slots_apply), else the reason of the refusal (the batch answers NotEligible with it as
-- o_detail, writes nothing and remembers no key, as a slot full).
-- The reasons are NotEligibleReason's: 1 too young, 2 no birth date, 3 invitation required,
-- 4 invitation unknown, 5 invitation used (bound to another person), 6 invitation revoked.
-- p_birth is the birth date read from the person's birth number (NULL when there is none): a
-- parameter only, never stored. p_invite is the keyed hash of the invitation code the booking
-- brought (NULL when none came). The order is EligibilityDecision.For's: everyone; the age rule;
-- a valid code where the service takes codes; else the code's own failure, then the rule's.
-- A service without a service_eligibility row is open to everyone: one primary-key probe. An age
-- rule reads the cut-off in force, the greatest born_on_or_before of the steps already open.
-- PL/pgSQL, not SQL: a SQL function that cannot be inlined (this one has sub-selects) is planned again
-- at its first call in every statement that calls it, so every batch paid for its planning; PL/pgSQL
-- keeps the plan for the session.
CREATE OR REPLACE FUNCTION slots_eligibility(p_service integer, p_person text, p_birth date, p_invite text, p_now bigint)
RETURNS integer LANGUAGE plpgsql STABLE AS $$
BEGIN
    RETURN coalesce((
        SELECT CASE
                   WHEN e.rule = 0 THEN 0
                   WHEN e.rule = 1 AND p_birth <= (SELECT max(a.born_on_or_before) FROM service_age_steps a
                                                   WHERE a.service_id = p_service AND a.opens_at <= p_now) THEN 0
                   WHEN (e.rule = 2 OR e.accepts_invitations) AND p_invite IS NOT NULL THEN
                       CASE WHEN c.hash IS NULL THEN 4
                            WHEN c.revoked THEN 6
                            WHEN c.spent_at IS NOT NULL AND c.person_hash IS DISTINCT FROM p_person THEN 5
                            ELSE -1 END
                   WHEN e.rule = 2 THEN 3
                   WHEN p_birth IS NULL THEN 2
                   ELSE 1
               END
        FROM service_eligibility e
        LEFT JOIN invitation_codes c ON c.hash = p_invite AND c.service_id = p_service
        WHERE e.service_id = p_service), 0);
END;
$$;
