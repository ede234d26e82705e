-- Places that change (issue 41): an admin edits a place, closes it to new bookings and opens it again.
-- opening_hours: free text shown on the place page ("Po-Pi 8:00-16:00"); NULL: not given.
-- closed_at: when an admin closed the place (Unix seconds); NULL: open. The seats themselves close
-- through site_cancels (one whole-day block per day with slots), as a site's block cancel does.
ALTER TABLE places ADD COLUMN opening_hours TEXT NULL;
ALTER TABLE places ADD COLUMN closed_at INTEGER NULL;

-- A block either cancels its bookings (keep_bookings 0, every block before this script) or only
-- closes its slots and keeps them (a place closed keeping its bookings). A block opened again keeps
-- its row, with who opened it and when; its slots take bookings again.
-- The same block asked for twice is one block while it stands; once opened again, the same hours
-- may be closed again by a new block. SQLite cannot drop the inline unique constraint of
-- 040_site_cancels.sql, so the table is rebuilt (it holds few rows) with a partial unique index.
CREATE TABLE site_cancels_new (
    id            INTEGER PRIMARY KEY AUTOINCREMENT,
    place_id      INTEGER NOT NULL,
    day           TEXT    NOT NULL,
    from_minute   INTEGER NOT NULL,
    to_minute     INTEGER NOT NULL,
    reason        TEXT    NOT NULL,
    actor         TEXT    NOT NULL,
    created_at    INTEGER NOT NULL,
    progress_at   INTEGER NOT NULL,
    finished_at   INTEGER NULL,
    cancelled     INTEGER NOT NULL DEFAULT 0,
    kept          INTEGER NOT NULL DEFAULT 0,   -- bookings left as they were: checked in, already started, or kept by keep_bookings
    keep_bookings INTEGER NOT NULL DEFAULT 0,
    closes_place  INTEGER NOT NULL DEFAULT 0,   -- one of a place's close (a block per day), opened again by the place's reopen
    reopened_at   INTEGER NULL,
    reopened_by   TEXT    NULL
);
INSERT INTO site_cancels_new (id, place_id, day, from_minute, to_minute, reason, actor, created_at, progress_at, finished_at, cancelled, kept)
SELECT id, place_id, day, from_minute, to_minute, reason, actor, created_at, progress_at, finished_at, cancelled, kept FROM site_cancels;
DROP TABLE site_cancels;
ALTER TABLE site_cancels_new RENAME TO site_cancels;
CREATE UNIQUE INDEX uq_site_cancels_block ON site_cancels (place_id, day, from_minute, to_minute) WHERE reopened_at IS NULL;
CREATE INDEX ix_site_cancels_unfinished ON site_cancels (id) WHERE finished_at IS NULL;
