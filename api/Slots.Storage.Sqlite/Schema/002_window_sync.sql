-- Window sync: the cold path's seat rule and the scheduler's run log (same as PostgreSQL's 002).

-- One active reservation per seat on disk, whichever path wrote it. The flush replays hot
-- changes one by one in id order, and a hot seat is always released before it is taken again,
-- so replaying never meets this index half-way.
CREATE UNIQUE INDEX ux_reservations_active_seat ON reservations (place_id, day, start_minute, seat_no)
    WHERE cancelled_at IS NULL;

-- The last run of each scheduler job, for the admin view (GET /api/admin/jobs).
CREATE TABLE job_runs (
    job         TEXT    NOT NULL PRIMARY KEY,
    started_at  INTEGER NOT NULL,
    duration_ms INTEGER NOT NULL,
    rows_moved  INTEGER NOT NULL,
    ok          INTEGER NOT NULL,
    instance    TEXT    NOT NULL
) WITHOUT ROWID;
