-- Opens a block again (a place reopened, or a site's block taken back), as
-- EfStaffStore.ReopenBlockCancelAsync does on SQLite and PostgreSQL. Interpreted: it writes disk
-- tables beside the hot ones. In one transaction: marks the block opened again (@actor, @now) and
-- finished where its run had not ended (a block opened again cancels nothing more, sql/066), gives
-- its slots back to bookings (slots.closed_by), and on a hot day inserts the seats its slots lack,
-- free, as dbo.load_hot_days (019) does: the seats of kept bookings stay as they are, the seats
-- of bookings the block cancelled come back free. Cancelled bookings stay cancelled. A slot that
-- another standing block covers stays closed, by that block.
-- @reopened: 1 when this call opened it, 0 when it was not standing (opened before, or unknown).
--
-- Locks: the block's row (UPDLOCK + HOLDLOCK: a batch of the same block, sql/066, takes turns with
-- this), then the place's row shared and held, as the cold procs take it, so the window mover
-- (dbo.load_hot_days, XLOCK) cannot move the day between hot and disk meanwhile. The seats go in
-- WITH (SNAPSHOT) (see dbo.load_hot_days); a seat a racing writer inserted first is skipped by the
-- NOT EXISTS, or this insert loses with 41302 and the adapter retries it whole.
CREATE OR ALTER PROCEDURE dbo.site_cancel_reopen
    @id       bigint,
    @actor    nvarchar(256),
    @now      bigint,
    @reopened bit OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    SET @reopened = 0;

    BEGIN TRANSACTION;

    DECLARE @place_id int = NULL, @day date, @from_minute int, @to_minute int;
    SELECT @place_id = place_id, @day = day, @from_minute = from_minute, @to_minute = to_minute
    FROM dbo.site_cancels WITH (UPDLOCK, HOLDLOCK)
    WHERE id = @id AND reopened_at IS NULL;
    IF @place_id IS NULL
    BEGIN
        COMMIT TRANSACTION;
        RETURN;
    END

    DECLARE @horizon date = NULL;
    SELECT @horizon = hot_until FROM dbo.places WITH (HOLDLOCK, ROWLOCK) WHERE id = @place_id;

    UPDATE dbo.site_cancels
    SET reopened_at = @now, reopened_by = @actor, finished_at = COALESCE(finished_at, @now), progress_at = @now
    WHERE id = @id;

    -- A slot that another standing block also covers stays closed, now by that block.
    UPDATE s SET closed_by = (
        SELECT MIN(b.id) FROM dbo.site_cancels b
        WHERE b.place_id = s.place_id AND b.day = s.day AND b.reopened_at IS NULL
          AND s.start_minute >= b.from_minute AND s.start_minute < b.to_minute)
    FROM dbo.slots s
    WHERE s.place_id = @place_id AND s.day = @day AND s.closed_by = @id;

    IF @day < @horizon
    BEGIN
        WITH digit AS (SELECT n FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS d (n)),
             seat AS (SELECT a.n + (10 * b.n) + (100 * c.n) + (1000 * e.n) + 1 AS seat_no
                      FROM digit a CROSS JOIN digit b CROSS JOIN digit c CROSS JOIN digit e)
        INSERT dbo.hot_seats WITH (SNAPSHOT) (place_id, day, start_minute, seat_no, minutes, starts_at, code)
        SELECT s.place_id, s.day, s.start_minute, seat.seat_no, s.minutes, s.starts_at, NULL
        FROM dbo.slots s
        JOIN seat ON seat.seat_no <= s.capacity
        WHERE s.place_id = @place_id AND s.day = @day AND s.start_minute >= @from_minute AND s.start_minute < @to_minute
          AND s.closed_by IS NULL   -- a slot another standing block still closes stays closed
          AND NOT EXISTS (SELECT 1 FROM dbo.hot_seats h WITH (SNAPSHOT)
                          WHERE h.place_id = s.place_id AND h.day = s.day AND h.start_minute = s.start_minute
                            AND h.seat_no = seat.seat_no);
    END

    SET @reopened = 1;
    COMMIT TRANSACTION;
END
GO
