-- Services (issue 41): what a campaign offers (an antigen test, a PCR test, a vaccine dose), and
-- which of them each place offers. Additive: every existing row becomes service 1 ('default'), and
-- a writer that does not name a service yet keeps writing 1 through the column's DEFAULT, so a
-- place with one service behaves exactly as before. The slot keys do not include the service yet.

-- The catalogue of services. code is the slug used in URLs, deep links and FHIR ids. A two-dose
-- service names the interval to its second dose in days (both bounds, or neither).
CREATE TABLE services (
    id            INTEGER NOT NULL PRIMARY KEY,
    code          TEXT    NOT NULL UNIQUE CHECK (length(code) BETWEEN 1 AND 32 AND code NOT GLOB '*[^a-z0-9-]*'),
    name_sk       TEXT    NOT NULL,
    name_en       TEXT    NOT NULL,
    dose_min_days INTEGER NULL,
    dose_max_days INTEGER NULL,
    active        INTEGER NOT NULL DEFAULT 1,
    CHECK ((dose_min_days IS NULL AND dose_max_days IS NULL)
        OR (dose_min_days >= 1 AND dose_max_days >= dose_min_days))
);
INSERT INTO services (id, code, name_sk, name_en, active) VALUES (1, 'default', 'Termín', 'Appointment', 1);

-- What a place offers: seats per slot and the slot template of each service (minutes after local
-- midnight), NULL until an admin sets them; the four template columns are set together or not at all.
CREATE TABLE place_services (
    place_id         INTEGER NOT NULL REFERENCES places (id),
    service_id       INTEGER NOT NULL REFERENCES services (id),
    seats            INTEGER NULL CHECK (seats >= 1),
    first_minute     INTEGER NULL,
    last_minute      INTEGER NULL,
    interval_minutes INTEGER NULL,
    length_minutes   INTEGER NULL,
    active           INTEGER NOT NULL DEFAULT 1,
    PRIMARY KEY (place_id, service_id),
    CHECK ((first_minute IS NULL AND last_minute IS NULL AND interval_minutes IS NULL AND length_minutes IS NULL)
        OR (first_minute BETWEEN 0 AND 1439 AND last_minute BETWEEN first_minute AND 1439
            AND interval_minutes >= 1 AND length_minutes >= 1))
) WITHOUT ROWID;

-- Every place offers the default service, with the seats per slot of its latest slot where it has one.
INSERT INTO place_services (place_id, service_id, seats, active)
SELECT p.id, 1,
       (SELECT s.capacity FROM slots s WHERE s.place_id = p.id ORDER BY s.day DESC, s.start_minute DESC LIMIT 1),
       1
FROM places p;

-- The service of each slot, seat, booking, change and waiting-list row. SQLite adds a column with a
-- constant DEFAULT without rewriting the table.
ALTER TABLE slots            ADD COLUMN service_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE hot_seats        ADD COLUMN service_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE reservations     ADD COLUMN service_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE hot_reservations ADD COLUMN service_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE changes          ADD COLUMN service_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE active_persons   ADD COLUMN service_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE waitlist         ADD COLUMN service_id INTEGER NOT NULL DEFAULT 1;
ALTER TABLE waitlist_offers  ADD COLUMN service_id INTEGER NOT NULL DEFAULT 1;
