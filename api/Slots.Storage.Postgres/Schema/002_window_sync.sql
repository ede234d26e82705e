-- Window sync: the flush of hot changes to disk, the cold path's seat rule, and the scheduler's run log.

-- One active reservation per seat on disk, whichever path wrote it. The cold path takes seats
-- here directly; the flush replays hot changes one by one in id order, and a hot seat is always
-- released (an earlier change) before it is taken again (a later one), so replaying never
-- meets this index half-way.
CREATE UNIQUE INDEX ux_reservations_active_seat ON reservations (place_id, day, start_minute, seat_no)
    WHERE cancelled_at IS NULL;

-- The last run of each scheduler job, for the admin view (GET /api/admin/jobs).
CREATE TABLE job_runs (
    job         text    NOT NULL PRIMARY KEY,
    started_at  bigint  NOT NULL,
    duration_ms bigint  NOT NULL,
    rows_moved  bigint  NOT NULL,
    ok          boolean NOT NULL,
    instance    text    NOT NULL
);
