-- A site's block cancel, one batch (interpreted: it writes disk tables beside the hot ones), as
-- EfStaffStore.CancelBlockBatchAsync does on SQLite and PostgreSQL. In one transaction: takes up
-- to @batch bookings of the block, in code order, that have no attendance row, and cancels each:
-- an attendance row (state 5, cancelled by the site, by the block's actor), an outbox row (kind 4,
-- the block's reason as its note), and then
--   a hot day (day < places.hot_until; slots not started by @now): a change record (kind 2, as
--   dbo.cancel writes it) for the disk copy, its active_persons row, its seat (deleted, not freed:
--   the slot is closed) and its hot row go;
--   a disk day: its active_persons row goes and the reservation is marked cancelled.
-- Then any free seat left in the block goes (one a citizen's cancel gave back meanwhile), and the
-- block's count and progress_at move on. @taken: bookings cancelled (0: none left; also for a
-- finished block). The attendance row is what makes each booking cancelled and told once: a
-- booking that has one is never taken again, whatever the retries or resumptions.
--
-- Locks: the block's row first (UPDLOCK + HOLDLOCK: two runners of one block, the first and a
-- resumed one, take turns), then the place's row shared and held, as the cold procs take it, so
-- the window mover (dbo.load_hot_days, XLOCK) cannot move the day between hot and disk meanwhile.
-- A disk day's bookings are read WITH (UPDLOCK): dbo.cold_cancel (which takes the reservation's
-- row the same way, then the place's row shared) waits for this batch, or this batch for it and
-- then no longer sees the booking active.
-- A hot day meets the native procs on the hot rows, where In-Memory OLTP takes no locks and finds
-- conflicts on writes: against dbo.cancel both delete the same hot_reservations row, against
-- dbo.staff_check_in this deletes the row the check-in updates and both insert the same code's
-- attendance row (sql/062), against the no-show job both insert that row. Whichever writes
-- second gets 41302 at once (or a duplicate key once the other has committed) and is rolled back
-- whole (XACT_ABORT). The adapter retries (SqlServerStaffStore.CheckInRetryOn), and the retry's
-- snapshot sees the winner: a booking cancelled or checked in first is no longer taken, and a
-- cancel or check-in that lost finds no hot row (dbo.cancel answers 2, staff_check_in 4).
-- The hot tables are touched WITH (SNAPSHOT) (see dbo.load_hot_days).
CREATE OR ALTER PROCEDURE dbo.site_cancel_batch
    @id    bigint,
    @now   bigint,
    @batch int,
    @taken int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    SET @taken = 0;

    DECLARE @picked TABLE (
        code         varchar(16)   COLLATE Latin1_General_100_BIN2 NOT NULL PRIMARY KEY,
        start_minute int           NOT NULL,
        seat_no      int           NOT NULL,
        person_hash  varchar(64)   COLLATE Latin1_General_100_BIN2 NOT NULL,
        phone        varchar(16)   NOT NULL,
        name         nvarchar(100) NOT NULL,
        language     varchar(8)    NOT NULL,
        created_at   bigint        NOT NULL
    );

    BEGIN TRANSACTION;

    DECLARE @place_id int = NULL, @day date, @from_minute int, @to_minute int, @reason nvarchar(100),
        @actor nvarchar(256), @finished_at bigint, @keep_bookings bit, @reopened_at bigint;
    SELECT @place_id = place_id, @day = day, @from_minute = from_minute, @to_minute = to_minute,
        @reason = reason, @actor = actor, @finished_at = finished_at, @keep_bookings = keep_bookings,
        @reopened_at = reopened_at
    FROM dbo.site_cancels WITH (UPDLOCK, HOLDLOCK)
    WHERE id = @id;
    IF @place_id IS NULL
        THROW 50061, N'site_cancel_batch: unknown block', 1;
    -- A block that keeps its bookings (a place closed keeping them, sql/160) cancels none; nor does
    -- one opened again (sql/161) before its run ended.
    IF @finished_at IS NOT NULL OR @keep_bookings = 1 OR @reopened_at IS NOT NULL
    BEGIN
        COMMIT TRANSACTION;
        RETURN;
    END

    DECLARE @horizon date = NULL;
    SELECT @horizon = hot_until FROM dbo.places WITH (HOLDLOCK, ROWLOCK) WHERE id = @place_id;

    IF @day < @horizon
    BEGIN
        -- A slot that has started is left: the visit may be under way (as dbo.cancel answers 3).
        INSERT @picked (code, start_minute, seat_no, person_hash, phone, name, language, created_at)
        SELECT TOP (@batch) h.code, h.start_minute, h.seat_no, h.person_hash, h.phone, h.name, h.language, h.created_at
        FROM dbo.hot_reservations h WITH (SNAPSHOT)
        WHERE h.day = @day AND h.place_id = @place_id
          AND h.start_minute >= @from_minute AND h.start_minute < @to_minute AND h.starts_at > @now
          AND NOT EXISTS (SELECT 1 FROM dbo.attendance a WITH (SNAPSHOT) WHERE a.code = h.code)
        ORDER BY h.code;
    END
    ELSE
    BEGIN
        INSERT @picked (code, start_minute, seat_no, person_hash, phone, name, language, created_at)
        SELECT TOP (@batch) r.code, r.start_minute, r.seat_no, r.person_hash, r.phone, r.name, r.language, r.created_at
        FROM dbo.reservations r WITH (UPDLOCK, ROWLOCK)
        WHERE r.place_id = @place_id AND r.day = @day
          AND r.start_minute >= @from_minute AND r.start_minute < @to_minute AND r.cancelled_at IS NULL
          AND NOT EXISTS (SELECT 1 FROM dbo.attendance a WITH (SNAPSHOT) WHERE a.code = r.code)
        ORDER BY r.code;
    END

    INSERT dbo.attendance WITH (SNAPSHOT) (code, place_id, day, state, at, [by])
    SELECT code, @place_id, @day, 5, @now, @actor FROM @picked;
    SET @taken = @@ROWCOUNT;

    IF @taken > 0
    BEGIN
        INSERT dbo.outbox WITH (SNAPSHOT) (kind, code, phone, language, place_id, day, start_minute,
            created_at, sent_at, note)
        SELECT 4, code, phone, language, @place_id, @day, start_minute, @now, NULL, @reason FROM @picked;

        -- The holder goes only while it still holds this booking (a person holds one at a time).
        DELETE ap
        FROM dbo.active_persons ap WITH (SNAPSHOT)
        JOIN @picked p ON p.person_hash = ap.person_hash AND p.code = ap.code;

        IF @day < @horizon
        BEGIN
            INSERT dbo.changes WITH (SNAPSHOT) (kind, code, place_id, day, start_minute, seat_no, person_hash,
                phone, name, language, created_at, at)
            SELECT 2, code, @place_id, @day, start_minute, seat_no, person_hash, phone, name, language,
                created_at, @now
            FROM @picked;

            -- The seat goes with its booking: the slot is closed, so it is not freed for another.
            DELETE s
            FROM dbo.hot_seats s WITH (SNAPSHOT)
            JOIN @picked p ON p.start_minute = s.start_minute AND p.seat_no = s.seat_no AND p.code = s.code
            WHERE s.place_id = @place_id AND s.day = @day;

            -- The write dbo.cancel's DELETE and dbo.staff_check_in's UPDATE of the same row conflict with.
            DELETE h
            FROM dbo.hot_reservations h WITH (SNAPSHOT)
            JOIN @picked p ON p.code = h.code;
        END
        ELSE
            UPDATE r SET cancelled_at = @now, updated_at = @now
            FROM dbo.reservations r
            JOIN @picked p ON p.code = r.code;
    END

    -- Free seats of the block go, one a citizen's cancel gave back while the block ran included.
    DELETE dbo.hot_seats WITH (SNAPSHOT)
    WHERE place_id = @place_id AND day = @day AND start_minute >= @from_minute AND start_minute < @to_minute
      AND hold = 0 AND code IS NULL;

    UPDATE dbo.site_cancels SET cancelled = cancelled + @taken, progress_at = @now
    WHERE id = @id;

    COMMIT TRANSACTION;
END
GO
