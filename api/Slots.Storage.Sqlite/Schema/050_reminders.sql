-- Day-before reminders: one row per booking and start time reminded (a booking moved to another
-- time is reminded of that one too), written with its SMS in one transaction. batch finds the rows
-- one run of the reminder job recorded, to queue their SMS; day finds the rows of past days to forget.
CREATE TABLE reminders (
    code      TEXT    NOT NULL,
    starts_at INTEGER NOT NULL,
    place_id  INTEGER NOT NULL,
    day       TEXT    NOT NULL,
    queued_at INTEGER NOT NULL,
    batch     INTEGER NOT NULL,
    PRIMARY KEY (code, starts_at)
);
CREATE INDEX ix_reminders_batch ON reminders (batch);
CREATE INDEX ix_reminders_day ON reminders (day);
