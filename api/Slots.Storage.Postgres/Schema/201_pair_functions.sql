-- Two-dose pairs (issue 41): slots_apply's answer gains the second dose's slot length (o_minutes2)
-- and slots_seat_second_doses takes the person's fields to write the second reservation; a
-- function's result or parameters change only by dropping it, so the old signatures go here and
-- the function files (re-applied after the scripts) create the new ones.
DROP FUNCTION IF EXISTS slots_apply(integer[], integer[], date[], integer[], integer[], text[], text[], text[], text[],
    text[], text[], text[], bigint[], date[], text[], text[], date[], date[], integer[], text[], boolean[]);
DROP FUNCTION IF EXISTS slots_seat_second_doses(integer[], integer[], integer[], text[], date[], date[], integer[], bigint[]);
