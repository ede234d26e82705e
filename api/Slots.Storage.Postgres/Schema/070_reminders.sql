-- Day-before reminders: one row per booking and start time reminded (a booking moved to another
-- time is reminded of that one too), written with its SMS in one transaction. batch finds the rows
-- one run of the reminder job recorded, to queue their SMS; day finds the rows of past days to forget.
CREATE TABLE IF NOT EXISTS reminders (
    code      text    NOT NULL,
    starts_at bigint  NOT NULL,
    place_id  integer NOT NULL,
    day       date    NOT NULL,
    queued_at bigint  NOT NULL,
    batch     bigint  NOT NULL,
    PRIMARY KEY (code, starts_at)
);
CREATE INDEX IF NOT EXISTS ix_reminders_batch ON reminders (batch);
CREATE INDEX IF NOT EXISTS ix_reminders_day ON reminders (day);
