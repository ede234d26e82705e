-- waitlist_claim books a two-dose service's second dose with the held seat (p_code2 and the range),
-- and refuses a claim whose offer is no longer the one it was made for: new parameters, so the old
-- function goes here and Functions/waitlist_claim.sql creates the new one.
DROP FUNCTION IF EXISTS waitlist_claim(text, text, bigint);
