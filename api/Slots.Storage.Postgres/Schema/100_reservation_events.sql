-- A new booking is three row writes: its seat, its person row and its reservation. The hot
-- reservation row carries what used to be three more rows of its own:
--   * the Idempotency-Key and the request's fingerprint (a replay finds the booking by its key);
--   * its confirmation SMS: event_id, drawn from the outbox's own id sequence, is the message id,
--     and sms_pending stays true until the relay has handed it to the queue;
--   * its change record: flush_pending stays true until the flush has written the booking to the
--     disk reservations.
-- Other answers' keys stay in idempotency, other SMS in outbox, other changes in changes. A hot
-- row that goes (cancel, block cancel, eviction) hands what it still carries to those tables
-- first (Functions/slots_hot_row_gone.sql), so nothing it holds is lost with it.
ALTER TABLE hot_reservations
    ADD COLUMN IF NOT EXISTS idem_key      text    NULL,
    ADD COLUMN IF NOT EXISTS fingerprint   text    NULL,
    ADD COLUMN IF NOT EXISTS event_id      bigint  NULL,
    ADD COLUMN IF NOT EXISTS sms_pending   boolean NOT NULL DEFAULT false,
    ADD COLUMN IF NOT EXISTS flush_pending boolean NOT NULL DEFAULT false;
CREATE UNIQUE INDEX IF NOT EXISTS ux_hot_reservations_key ON hot_reservations (idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX IF NOT EXISTS ix_hot_reservations_sms ON hot_reservations (event_id) WHERE sms_pending;
CREATE INDEX IF NOT EXISTS ix_hot_reservations_flush ON hot_reservations (event_id) WHERE flush_pending;
