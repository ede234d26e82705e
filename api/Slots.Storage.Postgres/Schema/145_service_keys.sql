-- The service in the hot keys (issue 41): a seat, a person's one active booking and a disk seat are
-- per (place, day, time, service). 140 added service_id everywhere with DEFAULT 1; here it joins
-- the keys, so antigen and PCR at 09:00 are two slots with seats of their own, and a person holds
-- at most one active booking per service.

-- The hot path's functions name the service now: slots_apply takes p_service and the later
-- packages' arrays and answers more columns, the seat helpers take the service. CREATE OR REPLACE
-- cannot change a signature, so the old ones go here and Functions/ creates the new ones.
-- slots_reserve is gone: an operation slots_apply leaves to later is a batch of one of its own.
DROP FUNCTION IF EXISTS slots_apply(integer[], integer[], date[], integer[], text[], text[], text[], text[], text[], text[], text[], bigint[]);
DROP FUNCTION IF EXISTS slots_reserve(integer, date, integer, text, text, text, text, text, text, text, bigint);
DROP FUNCTION IF EXISTS slots_claim_seat(integer, date, integer, text, bigint);
DROP FUNCTION IF EXISTS slots_release_seat(integer, date, integer, integer, text);
DROP FUNCTION IF EXISTS slots_probe(integer, date, integer, bigint);

-- Seats: the service after the time, before the seat. The old prefix stays in front, so a place's
-- week is still one range read of the key, and the seat pick (… AND service_id = $s ORDER BY
-- seat_no LIMIT 1) still one short scan. The table keeps its fillfactor (80, for HOT seat claims):
-- it is a storage parameter of the table, which a new key does not touch.
ALTER TABLE hot_seats DROP CONSTRAINT IF EXISTS hot_seats_pkey;
ALTER TABLE hot_seats ADD CONSTRAINT hot_seats_pkey PRIMARY KEY (place_id, day, start_minute, service_id, seat_no);

-- One active booking per person and service: the key where two racers for one person meet.
ALTER TABLE active_persons DROP CONSTRAINT IF EXISTS active_persons_pkey;
ALTER TABLE active_persons ADD CONSTRAINT active_persons_pkey PRIMARY KEY (person_hash, service_id);

-- Disk: one active reservation per seat of a service's slot, and the slot's index.
DROP INDEX IF EXISTS ux_reservations_active_seat;
CREATE UNIQUE INDEX ux_reservations_active_seat ON reservations (place_id, day, start_minute, service_id, seat_no)
    WHERE cancelled_at IS NULL;
DROP INDEX IF EXISTS ix_reservations_slot;
CREATE INDEX ix_reservations_slot ON reservations (place_id, day, start_minute, service_id);
