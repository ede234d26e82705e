-- A new booking is three row writes, as on PostgreSQL (100_reservation_events.sql there): its seat,
-- its person row and its reservation. The hot reservation row carries what were three more rows:
--   * the Idempotency-Key and the request's fingerprint (a replay finds the booking by its key);
--   * its confirmation SMS: event_id is the message id, drawn from the outbox's own id counter
--     (sqlite_sequence), and sms_pending stays 1 until the relay has handed it on;
--   * its change record: flush_pending stays 1 until the flush has written it to the disk.
-- Other answers' keys stay in idempotency, other SMS in outbox, other changes in changes.
ALTER TABLE hot_reservations ADD COLUMN idem_key      TEXT    NULL;
ALTER TABLE hot_reservations ADD COLUMN fingerprint   TEXT    NULL;
ALTER TABLE hot_reservations ADD COLUMN event_id      INTEGER NULL;
ALTER TABLE hot_reservations ADD COLUMN sms_pending   INTEGER NOT NULL DEFAULT 0;
ALTER TABLE hot_reservations ADD COLUMN flush_pending INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX ux_hot_reservations_key ON hot_reservations (idem_key) WHERE idem_key IS NOT NULL;
CREATE INDEX ix_hot_reservations_sms ON hot_reservations (event_id) WHERE sms_pending = 1;
CREATE INDEX ix_hot_reservations_flush ON hot_reservations (event_id) WHERE flush_pending = 1;

-- The counter exists from the start, so the hot path's draw is one UPDATE.
INSERT INTO sqlite_sequence (name, seq)
SELECT 'outbox', coalesce((SELECT max(id) FROM outbox), 0)
WHERE NOT EXISTS (SELECT 1 FROM sqlite_sequence WHERE name = 'outbox');

-- A hot row that goes (a cancel, a site's block cancel, the eviction of a past day) first hands
-- what it still carries to the tables of their own, in the same transaction:
--   * its confirmation joins the outbox under its own message id (sent when the relay had already
--     handed it on), so an unsent one is still sent, once: a copy the relay read has the same id;
--   * its booking, when the flush has not written it yet, becomes a change record (kind 1, which
--     the flush applies only where the disk has no row for the code);
--   * its Idempotency-Key joins idempotency, so a retried request still gets its first answer.
CREATE TRIGGER hot_row_gone BEFORE DELETE ON hot_reservations
BEGIN
    INSERT INTO outbox (id, kind, code, phone, language, place_id, day, start_minute, created_at, sent_at)
    SELECT OLD.event_id, 1, OLD.code, OLD.phone, OLD.language, OLD.place_id, OLD.day, OLD.start_minute, OLD.created_at,
           CASE WHEN OLD.sms_pending = 1 THEN NULL ELSE unixepoch() END
    WHERE OLD.event_id IS NOT NULL AND NOT EXISTS (SELECT 1 FROM outbox WHERE id = OLD.event_id);
    INSERT INTO changes (kind, code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language,
                         created_at, at)
    SELECT 1, OLD.code, OLD.place_id, OLD.day, OLD.start_minute, OLD.service_id, OLD.seat_no, OLD.person_hash, OLD.phone,
           OLD.name, OLD.language, OLD.created_at, OLD.created_at
    WHERE OLD.flush_pending = 1;
    INSERT INTO idempotency (key, fingerprint, outcome, code, created_at)
    SELECT OLD.idem_key, OLD.fingerprint, 1, OLD.code, OLD.created_at
    WHERE OLD.idem_key IS NOT NULL AND NOT EXISTS (SELECT 1 FROM idempotency WHERE key = OLD.idem_key);
END;
