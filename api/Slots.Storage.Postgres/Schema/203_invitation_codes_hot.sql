-- Spending an invitation code updates its row in the booking's transaction (slots_spend_invitations).
-- No query reads codes by spent_code, so its index goes: with no indexed column changed and room on
-- the page (fillfactor, for the pages written from now on: a batch is written when it is issued),
-- the update is a heap-only tuple update instead of a new entry in each index.
DROP INDEX IF EXISTS ix_invitation_codes_spent_code;
ALTER TABLE invitation_codes SET (fillfactor = 50);
