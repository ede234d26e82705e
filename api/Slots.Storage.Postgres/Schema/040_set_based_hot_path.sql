-- The set-based hot path (Functions/slots_apply.sql): its answer carries the slot's length, so
-- slots_apply and slots_reserve change their result types, which CREATE OR REPLACE cannot do;
-- the old ones go here and Functions/ creates the new ones. slots_announce has no caller left.
-- A key row is written once with its answer now, not inserted and then updated: no room for a
-- HOT update is needed on its pages any more.
DROP FUNCTION IF EXISTS slots_apply(integer[], integer[], date[], integer[], text[], text[], text[], text[], text[], text[], text[], bigint[]);
DROP FUNCTION IF EXISTS slots_reserve(integer, date, integer, text, text, text, text, text, text, text, bigint);
DROP FUNCTION IF EXISTS slots_announce(integer, text, bigint);
DROP INDEX IF EXISTS ix_active_persons_code;
ALTER TABLE idempotency RESET (fillfactor);
