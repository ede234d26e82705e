-- Two-dose bookings (issue 41), as on PostgreSQL (200_dose_pairs.sql there): a pair is two
-- reservations, hot or on disk, seated in the writer's one transaction and linked here in it.
CREATE TABLE dose_pairs (
    first_code  TEXT    NOT NULL PRIMARY KEY,
    second_code TEXT    NOT NULL UNIQUE,
    service_id  INTEGER NOT NULL,
    created_at  INTEGER NOT NULL
) WITHOUT ROWID;
