-- A site cancels a block of its slots (a time range of one day, or the whole day) with a reason.
-- The block's row is written first, with its slots closed, in one transaction; its bookings are
-- then cancelled in batches, each in a transaction of its own, until none is left (finished_at).
-- An unfinished block is resumed by whichever scheduler finds it idle (progress_at), so a crash in
-- the middle loses nothing. A booking's attendance row (state 5, cancelled by the site) is written
-- in the batch that cancels it: that row is what makes each booking cancelled and told once.
CREATE TABLE IF NOT EXISTS site_cancels (
    id          bigint  GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    place_id    integer NOT NULL,
    day         date    NOT NULL,
    from_minute integer NOT NULL,
    to_minute   integer NOT NULL,
    reason      text    NOT NULL,
    actor       text    NOT NULL,
    created_at  bigint  NOT NULL,
    progress_at bigint  NOT NULL,
    finished_at bigint  NULL,
    cancelled   integer NOT NULL DEFAULT 0,
    kept        integer NOT NULL DEFAULT 0,   -- bookings left as they were: checked in, or already started
    CONSTRAINT uq_site_cancels_block UNIQUE (place_id, day, from_minute, to_minute)
);
CREATE INDEX IF NOT EXISTS ix_site_cancels_unfinished ON site_cancels (id) WHERE finished_at IS NULL;

-- A closed slot takes no booking: the window leaves it out of the hot seats, the cold path refuses it.
ALTER TABLE slots ADD COLUMN IF NOT EXISTS closed_by bigint NULL;

-- What a text needs beyond the booking: the site's reason for its cancel.
ALTER TABLE outbox ADD COLUMN IF NOT EXISTS note text NULL;
