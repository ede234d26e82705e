-- The door's record of a booking (checked in, or a no-show), one row per booking code. Apart from
-- the reservation tables so the booking hot path writes nothing more; slots_cancel reads it.
CREATE TABLE IF NOT EXISTS attendance (
    code     text     NOT NULL PRIMARY KEY,
    place_id integer  NOT NULL,
    day      date     NOT NULL,
    state    smallint NOT NULL,  -- 2 checked in, 3 no-show (RosterState)
    at       bigint   NOT NULL,
    by       text     NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_attendance_day ON attendance (place_id, day);

-- What staff did, append-only: who, when, where, what, on what, why. No personal data.
CREATE TABLE IF NOT EXISTS staff_audit (
    id       bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at       bigint  NOT NULL,
    actor    text    NOT NULL,
    place_id integer NULL,
    action   text    NOT NULL,
    target   text    NULL,
    reason   text    NULL
);
CREATE INDEX IF NOT EXISTS ix_staff_audit_place ON staff_audit (place_id, at);
CREATE INDEX IF NOT EXISTS ix_staff_audit_at ON staff_audit (at);
