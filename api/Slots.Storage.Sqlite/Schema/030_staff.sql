-- The door's record of a booking (checked in, or a no-show), one row per booking code. Apart from
-- the reservation tables so the booking hot path writes nothing more; the citizen's cancel reads it.
CREATE TABLE attendance (
    code     TEXT    NOT NULL PRIMARY KEY,
    place_id INTEGER NOT NULL,
    day      TEXT    NOT NULL,
    state    INTEGER NOT NULL,  -- 2 checked in, 3 no-show (RosterState)
    at       INTEGER NOT NULL,
    by       TEXT    NOT NULL
);
CREATE INDEX ix_attendance_day ON attendance (place_id, day);

-- What staff did, append-only: who, when, where, what, on what, why. No personal data.
CREATE TABLE staff_audit (
    id       INTEGER PRIMARY KEY AUTOINCREMENT,
    at       INTEGER NOT NULL,
    actor    TEXT    NOT NULL,
    place_id INTEGER NULL,
    action   TEXT    NOT NULL,
    target   TEXT    NULL,
    reason   TEXT    NULL
);
CREATE INDEX ix_staff_audit_place ON staff_audit (place_id, at);
CREATE INDEX ix_staff_audit_at ON staff_audit (at);
