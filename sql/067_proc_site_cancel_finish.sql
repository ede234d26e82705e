-- A site's block cancel, finished, as EfStaffStore.FinishBlockCancelAsync does on SQLite and
-- PostgreSQL: unless finished before, counts the bookings the block left (a hot day's hot rows, a
-- disk day's active rows), drops the free seats left, and stamps the block finished; then answers
-- the block's row, read after the commit (a finished block's row changes no more). A proc beside
-- the hot path's because it deletes hot seats.
-- The locks are dbo.site_cancel_batch's (sql/066): the block's row, then the place's shared, so a
-- batch still running for the block is waited for and the day stays where it is. The hot tables
-- are touched WITH (SNAPSHOT); a seat a booking takes meanwhile is a write-write conflict (41302),
-- rolled back whole (XACT_ABORT) and retried by the adapter.
CREATE OR ALTER PROCEDURE dbo.site_cancel_finish
    @id  bigint,
    @now bigint
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    BEGIN TRANSACTION;
    DECLARE @place_id int = NULL, @day date, @from_minute int, @to_minute int, @finished_at bigint;
    SELECT @place_id = place_id, @day = day, @from_minute = from_minute, @to_minute = to_minute, @finished_at = finished_at
    FROM dbo.site_cancels WITH (UPDLOCK, HOLDLOCK)
    WHERE id = @id;
    IF @place_id IS NULL
        THROW 50062, N'finish block cancel: unknown block', 1;
    IF @finished_at IS NULL
    BEGIN
        DECLARE @horizon date = NULL, @kept int = 0;
        SELECT @horizon = hot_until FROM dbo.places WITH (HOLDLOCK, ROWLOCK) WHERE id = @place_id;
        IF @day < @horizon
            SELECT @kept = COUNT(*) FROM dbo.hot_reservations WITH (SNAPSHOT)
            WHERE day = @day AND place_id = @place_id AND start_minute >= @from_minute AND start_minute < @to_minute;
        ELSE
            SELECT @kept = COUNT(*) FROM dbo.reservations
            WHERE place_id = @place_id AND day = @day AND start_minute >= @from_minute AND start_minute < @to_minute
              AND cancelled_at IS NULL;
        DELETE dbo.hot_seats WITH (SNAPSHOT)
        WHERE place_id = @place_id AND day = @day AND start_minute >= @from_minute AND start_minute < @to_minute
          AND hold = 0 AND code IS NULL;
        UPDATE dbo.site_cancels SET kept = @kept, finished_at = @now, progress_at = @now
        WHERE id = @id;
    END
    COMMIT TRANSACTION;
    SELECT id, place_id, day, from_minute, to_minute, reason, actor, created_at, finished_at, cancelled, kept
    FROM dbo.site_cancels
    WHERE id = @id;
END
GO
