-- waitlist_claim answers the service of the seat it booked (o_service), so the claim's answer names
-- it as every other booking's does. CREATE OR REPLACE cannot add an OUT parameter: the old function
-- goes here and Functions/waitlist_claim.sql creates the new one.
DROP FUNCTION IF EXISTS waitlist_claim(text, text, bigint);
