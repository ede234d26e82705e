-- A site's block cancel, first step (interpreted: it writes disk tables beside the hot ones), as
-- EfStaffStore.OpenBlockCancelAsync does on SQLite and PostgreSQL. In one transaction: writes the
-- block's row (064), closes its slots (slots.closed_by), drops its free hot seats and writes the
-- staff_audit entry (@target is the block as the trail shows it, 'yyyy-MM-dd HH:mm-HH:mm').
-- The same block asked for again changes nothing: @created 0 and the block's row as it stands.
-- Its bookings are cancelled afterwards, a batch at a time, by dbo.site_cancel_batch (066).
--
-- Locks: the block's key first (UPDLOCK + HOLDLOCK: a second open of the same block waits here,
-- U locks exclude each other, and then finds the first one's row instead of failing on the unique
-- key), then the place's row shared and held, as the cold procs take it, so the window mover
-- (dbo.load_hot_days, XLOCK) cannot move the day between hot and disk while its slots close.
-- Against dbo.reserve (native): reserve claims a free seat by updating its row, this deletes the
-- free seats; on the same seat the later writer gets 41302 at once. A reserve that loses retries
-- and finds no seat; an open that loses is rolled back whole (XACT_ABORT) and the adapter retries
-- it (SqlServerRetryPolicy), on a snapshot that sees the booking, which the batches then cancel.
-- The hot tables are touched WITH (SNAPSHOT) (see dbo.load_hot_days).
CREATE OR ALTER PROCEDURE dbo.site_cancel_open
    @place_id     int,
    @day          date,
    @from_minute  int,
    @to_minute    int,
    @reason       nvarchar(100),
    @actor        nvarchar(256),
    @target       nvarchar(200),
    @now          bigint,
    @keep_bookings bit,                  -- 1: close the slots and keep their bookings (a place closed keeping them)
    @closes_place  bit,                  -- 1: one of a place's close, opened again by the place's reopen
    @id           bigint OUTPUT,
    @created      bit OUTPUT,
    @block_reason nvarchar(100) OUTPUT,   -- the block's own: an ask for an existing block answers the first ask's
    @block_actor  nvarchar(256) OUTPUT,
    @created_at   bigint OUTPUT,
    @finished_at  bigint OUTPUT,
    @cancelled    int OUTPUT,
    @kept         int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    SET @id = NULL;
    SET @created = 0;

    BEGIN TRANSACTION;

    SELECT @id = id, @block_reason = reason, @block_actor = actor, @created_at = created_at,
        @finished_at = finished_at, @cancelled = cancelled, @kept = kept
    FROM dbo.site_cancels WITH (UPDLOCK, HOLDLOCK)
    WHERE place_id = @place_id AND day = @day AND from_minute = @from_minute AND to_minute = @to_minute
      AND reopened_at IS NULL;   -- a block opened again (sql/161) no longer stands: the same hours make a new one
    IF @id IS NOT NULL
    BEGIN
        COMMIT TRANSACTION;
        RETURN;
    END

    DECLARE @horizon date = NULL;
    SELECT @horizon = hot_until FROM dbo.places WITH (HOLDLOCK, ROWLOCK) WHERE id = @place_id;
    IF @horizon IS NULL
        THROW 50060, N'site_cancel_open: unknown place', 1;

    INSERT dbo.site_cancels (place_id, day, from_minute, to_minute, reason, actor, created_at, progress_at,
        finished_at, cancelled, kept, keep_bookings, closes_place)
    VALUES (@place_id, @day, @from_minute, @to_minute, @reason, @actor, @now, @now, NULL, 0, 0, @keep_bookings, @closes_place);
    SET @id = CONVERT(bigint, SCOPE_IDENTITY());

    -- Closed at once: no new booking lands in the block from here on, hot day or disk day.
    UPDATE dbo.slots SET closed_by = @id
    WHERE place_id = @place_id AND day = @day AND start_minute >= @from_minute AND start_minute < @to_minute
      AND closed_by IS NULL;

    -- A hot day's free seats go (a disk day has none); the taken ones go with their bookings.
    DELETE dbo.hot_seats WITH (SNAPSHOT)
    WHERE place_id = @place_id AND day = @day AND start_minute >= @from_minute AND start_minute < @to_minute
      AND hold = 0 AND code IS NULL;

    INSERT dbo.staff_audit (at, actor, place_id, action, target, reason)
    VALUES (@now, @actor, @place_id, 'block-cancel', @target, @reason);

    SET @created = 1;
    SET @block_reason = @reason;
    SET @block_actor = @actor;
    SET @created_at = @now;
    SET @finished_at = NULL;
    SET @cancelled = 0;
    SET @kept = 0;

    COMMIT TRANSACTION;
END
GO
