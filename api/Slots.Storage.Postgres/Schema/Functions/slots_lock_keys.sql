-- Locks Idempotency-Keys for the rest of the transaction, in one order (their hashes, ascending),
-- so writers that lock several never wait on each other in a cycle: slots_apply for its batch,
-- the cold path for its one key. The first half of the lock id keeps these apart from every other
-- advisory lock; two keys sharing a hash only wait for each other.
CREATE OR REPLACE FUNCTION slots_lock_keys(p_keys text[]) RETURNS void LANGUAGE plpgsql AS $$
BEGIN
    PERFORM count(pg_advisory_xact_lock(1936486252, k.h))
    FROM (SELECT DISTINCT hashtext(key) AS h FROM unnest(p_keys) AS key ORDER BY 1) k;
END;
$$;
