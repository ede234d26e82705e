-- Two-dose bookings (issue 41): a pair is two reservations, the first dose's (its code is the
-- person's) and the second's, seated in one transaction (slots_apply's slots_seat_second_doses, or
-- the cold path) and linked here in the same one. The second dose usually lies beyond the hot
-- window, so either reservation may be hot or on disk; the link is neither and moves with neither.
-- Codes only: nothing personal.
CREATE TABLE IF NOT EXISTS dose_pairs (
    first_code  text    NOT NULL PRIMARY KEY,
    second_code text    NOT NULL UNIQUE,
    service_id  integer NOT NULL,
    created_at  bigint  NOT NULL
);
