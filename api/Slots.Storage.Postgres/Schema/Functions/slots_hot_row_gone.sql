-- Before a hot reservation row is deleted (a cancel, a site's block cancel, the eviction of a past
-- day), what it still carries for others moves to their own tables, in the same transaction:
--   * its confirmation SMS joins the outbox under its own message id (sent_at set when the relay
--     had already handed it on), so the outbox stays the whole record of SMS and an unsent one is
--     still sent, exactly once: a copy the relay had already read carries the same id;
--   * its booking, if the flush has not written it yet, becomes a change record (kind 1, which
--     the flush applies only where the disk has no row for the code yet);
--   * its Idempotency-Key joins idempotency, so a retried request still gets its first answer.
CREATE OR REPLACE FUNCTION slots_hot_row_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
    IF OLD.event_id IS NOT NULL THEN
        INSERT INTO outbox (id, kind, code, phone, language, place_id, day, start_minute, created_at, sent_at)
        VALUES (OLD.event_id, 1, OLD.code, OLD.phone, OLD.language, OLD.place_id, OLD.day, OLD.start_minute, OLD.created_at,
                CASE WHEN OLD.sms_pending THEN NULL ELSE extract(epoch FROM now())::bigint END)
        ON CONFLICT (id) DO NOTHING;
    END IF;
    IF OLD.flush_pending THEN
        INSERT INTO changes (kind, code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name, language,
                             created_at, at)
        VALUES (1, OLD.code, OLD.place_id, OLD.day, OLD.start_minute, OLD.service_id, OLD.seat_no, OLD.person_hash, OLD.phone,
                OLD.name, OLD.language, OLD.created_at, OLD.created_at);
    END IF;
    IF OLD.idem_key IS NOT NULL THEN
        INSERT INTO idempotency (key, fingerprint, outcome, code, created_at)
        VALUES (OLD.idem_key, OLD.fingerprint, 1, OLD.code, OLD.created_at)
        ON CONFLICT (key) DO NOTHING;
    END IF;
    RETURN OLD;
END;
$$;
DROP TRIGGER IF EXISTS hot_row_gone ON hot_reservations;
CREATE TRIGGER hot_row_gone BEFORE DELETE ON hot_reservations FOR EACH ROW EXECUTE FUNCTION slots_hot_row_gone();
