-- Services (issue 41): what a campaign offers (an antigen test, a PCR test, a vaccine dose), and
-- which of them each place offers. Additive: every existing row becomes service 1 ('default'), and
-- a writer that does not name a service yet keeps writing 1 through the column's DEFAULT, so a
-- place with one service behaves exactly as before. The slot keys do not include the service yet.

-- The catalogue of services. code is the slug used in URLs, deep links and FHIR ids. A two-dose
-- service names the interval to its second dose in days (both bounds, or neither).
CREATE TABLE IF NOT EXISTS services (
    id            integer  NOT NULL PRIMARY KEY,
    code          text     NOT NULL UNIQUE CHECK (code ~ '^[a-z0-9-]{1,32}$'),
    name_sk       text     NOT NULL,
    name_en       text     NOT NULL,
    dose_min_days integer  NULL,
    dose_max_days integer  NULL,
    active        boolean  NOT NULL DEFAULT true,
    CONSTRAINT ck_services_dose CHECK ((dose_min_days IS NULL AND dose_max_days IS NULL)
        OR (dose_min_days >= 1 AND dose_max_days >= dose_min_days))
);
INSERT INTO services (id, code, name_sk, name_en, active)
VALUES (1, 'default', 'Termín', 'Appointment', true)
ON CONFLICT (id) DO NOTHING;

-- What a place offers: seats per slot and the slot template of each service (minutes after local
-- midnight), NULL until an admin sets them; the four template columns are set together or not at all.
CREATE TABLE IF NOT EXISTS place_services (
    place_id         integer NOT NULL REFERENCES places (id),
    service_id       integer NOT NULL REFERENCES services (id),
    seats            integer NULL CHECK (seats >= 1),
    first_minute     integer NULL,
    last_minute      integer NULL,
    interval_minutes integer NULL,
    length_minutes   integer NULL,
    active           boolean NOT NULL DEFAULT true,
    PRIMARY KEY (place_id, service_id),
    CONSTRAINT ck_place_services_template CHECK (
        (first_minute IS NULL AND last_minute IS NULL AND interval_minutes IS NULL AND length_minutes IS NULL)
        OR (first_minute BETWEEN 0 AND 1439 AND last_minute BETWEEN first_minute AND 1439
            AND interval_minutes >= 1 AND length_minutes >= 1))
);

-- Every place offers the default service, with the seats per slot of its latest slot where it has one.
INSERT INTO place_services (place_id, service_id, seats, active)
SELECT p.id, 1,
       (SELECT s.capacity FROM slots s WHERE s.place_id = p.id ORDER BY s.day DESC, s.start_minute DESC LIMIT 1),
       true
FROM places p
ON CONFLICT (place_id, service_id) DO NOTHING;

-- The service of each slot, seat, booking, change and waiting-list row. A constant DEFAULT is
-- metadata only on PostgreSQL 11 and later: no table is rewritten.
ALTER TABLE slots            ADD COLUMN IF NOT EXISTS service_id integer NOT NULL DEFAULT 1;
ALTER TABLE hot_seats        ADD COLUMN IF NOT EXISTS service_id integer NOT NULL DEFAULT 1;
ALTER TABLE reservations     ADD COLUMN IF NOT EXISTS service_id integer NOT NULL DEFAULT 1;
ALTER TABLE hot_reservations ADD COLUMN IF NOT EXISTS service_id integer NOT NULL DEFAULT 1;
ALTER TABLE changes          ADD COLUMN IF NOT EXISTS service_id integer NOT NULL DEFAULT 1;
ALTER TABLE active_persons   ADD COLUMN IF NOT EXISTS service_id integer NOT NULL DEFAULT 1;
ALTER TABLE waitlist         ADD COLUMN IF NOT EXISTS service_id integer NOT NULL DEFAULT 1;
ALTER TABLE waitlist_offers  ADD COLUMN IF NOT EXISTS service_id integer NOT NULL DEFAULT 1;
