-- Places that change (issue 41): an admin edits a place, closes it to new bookings and opens it again.
-- opening_hours: free text shown on the place page ("Po-Pi 8:00-16:00"); NULL: not given.
-- closed_at: when an admin closed the place (Unix seconds); NULL: open. The seats themselves close
-- through site_cancels (one whole-day block per day with slots), as a site's block cancel does.
ALTER TABLE places ADD COLUMN IF NOT EXISTS opening_hours text NULL;
ALTER TABLE places ADD COLUMN IF NOT EXISTS closed_at bigint NULL;

-- A block either cancels its bookings (keep_bookings false, every block before this script) or
-- only closes its slots and keeps them (a place closed keeping its bookings). A block opened again
-- keeps its row, with who opened it and when; its slots take bookings again.
ALTER TABLE site_cancels ADD COLUMN IF NOT EXISTS keep_bookings boolean NOT NULL DEFAULT false;
-- closes_place: one of a place's close (a block per day), opened again by the place's reopen.
ALTER TABLE site_cancels ADD COLUMN IF NOT EXISTS closes_place boolean NOT NULL DEFAULT false;
ALTER TABLE site_cancels ADD COLUMN IF NOT EXISTS reopened_at bigint NULL;
ALTER TABLE site_cancels ADD COLUMN IF NOT EXISTS reopened_by text NULL;

-- The same block asked for twice is one block while it stands; once opened again, the same hours
-- may be closed again by a new block.
ALTER TABLE site_cancels DROP CONSTRAINT IF EXISTS uq_site_cancels_block;
CREATE UNIQUE INDEX IF NOT EXISTS uq_site_cancels_block ON site_cancels (place_id, day, from_minute, to_minute)
    WHERE reopened_at IS NULL;
