-- The service in the hot keys (issue 41). A seat belongs to one service's slot: two services at the
-- same minute of a place have seats of their own, numbered from 1 each. The old key stays in front,
-- so a place's week is still one range read, and the seat pick (… AND service_id = $s ORDER BY
-- seat_no LIMIT 1) is still one short scan. A person holds one active booking per service: a test
-- and a vaccination at once, never two tests.
-- SQLite cannot change a primary key in place: the WITHOUT ROWID tables are rebuilt, copied and
-- renamed (as 140_place_changes.sql rebuilds site_cancels). Every row so far is service 1.

CREATE TABLE hot_seats_new (
    place_id     INTEGER NOT NULL,
    day          TEXT    NOT NULL,
    start_minute INTEGER NOT NULL,
    service_id   INTEGER NOT NULL DEFAULT 1,
    seat_no      INTEGER NOT NULL,
    minutes      INTEGER NOT NULL,
    starts_at    INTEGER NOT NULL,
    code         TEXT    NULL,
    hold         INTEGER NOT NULL DEFAULT 0,
    offer_id     INTEGER NULL,
    PRIMARY KEY (place_id, day, start_minute, service_id, seat_no)
) WITHOUT ROWID;
INSERT INTO hot_seats_new (place_id, day, start_minute, service_id, seat_no, minutes, starts_at, code, hold, offer_id)
SELECT place_id, day, start_minute, service_id, seat_no, minutes, starts_at, code, hold, offer_id FROM hot_seats;
DROP TABLE hot_seats;
ALTER TABLE hot_seats_new RENAME TO hot_seats;

CREATE TABLE active_persons_new (
    person_hash TEXT    NOT NULL,
    service_id  INTEGER NOT NULL DEFAULT 1,
    code        TEXT    NOT NULL,
    ends_at     INTEGER NOT NULL,
    PRIMARY KEY (person_hash, service_id)
) WITHOUT ROWID;
INSERT INTO active_persons_new (person_hash, service_id, code, ends_at)
SELECT person_hash, service_id, code, ends_at FROM active_persons;
DROP TABLE active_persons;
ALTER TABLE active_persons_new RENAME TO active_persons;
CREATE INDEX ix_active_persons_code ON active_persons (code);

-- One active reservation per seat on disk, per service's slot; the slot's bookings in one range.
DROP INDEX ux_reservations_active_seat;
CREATE UNIQUE INDEX ux_reservations_active_seat ON reservations (place_id, day, start_minute, service_id, seat_no)
    WHERE cancelled_at IS NULL;
DROP INDEX ix_reservations_slot;
CREATE INDEX ix_reservations_slot ON reservations (place_id, day, start_minute, service_id);
