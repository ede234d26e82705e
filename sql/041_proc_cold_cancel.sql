-- The cold path (interpreted T-SQL): cancels a reservation whose day is from its place's stored
-- horizon on, in one transaction, as ColdReservationStore.CancelAsync does.
--   @route   0 Done, 1 NowHot (the day became hot: nothing changed, the caller asks dbo.cancel)
--   @outcome 1 Cancelled, 2 NotFound (also for a code without its owner's phone or person hash:
--            it reveals nothing), 3 Started
-- Locks: the reservation row first (UPDLOCK + HOLDLOCK: readers go on, a second writer of this
-- code waits), then its place row shared and held (HOLDLOCK), so the window mover (which takes the
-- place row with XLOCK and only reads reservations) cannot move the day in between. Taking the
-- row first means the place locked is the place the row is in, even if a reschedule just moved it.
-- The hot tables are touched WITH (SNAPSHOT) (see dbo.cold_reserve).
CREATE OR ALTER PROCEDURE dbo.cold_cancel
    @code        varchar(16),
    @phone       varchar(16),   -- null when not given
    @person_hash varchar(64),   -- null when not given
    @now         bigint,
    @route       int OUTPUT,
    @outcome     int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    SET @route = 0;
    SET @outcome = 2;

    BEGIN TRANSACTION;

    DECLARE @found varchar(16) = NULL;
    DECLARE @place_id int, @day date, @start_minute int, @held_phone varchar(16), @held_person varchar(64),
        @language varchar(8);
    SELECT @found = code, @place_id = place_id, @day = day, @start_minute = start_minute,
        @held_phone = phone, @held_person = person_hash, @language = language
    FROM dbo.reservations WITH (UPDLOCK, HOLDLOCK, ROWLOCK)
    WHERE code = @code AND cancelled_at IS NULL;
    IF @found IS NULL
    BEGIN
        COMMIT TRANSACTION;
        RETURN;
    END

    DECLARE @horizon date = NULL;
    SELECT @horizon = hot_until FROM dbo.places WITH (HOLDLOCK, ROWLOCK) WHERE id = @place_id;
    IF @day < @horizon
    BEGIN
        SET @route = 1;
        COMMIT TRANSACTION;
        RETURN;
    END

    IF NOT ((@phone IS NOT NULL AND @phone = @held_phone)
         OR (@person_hash IS NOT NULL AND @person_hash = @held_person))
    BEGIN
        COMMIT TRANSACTION;
        RETURN;
    END

    DECLARE @starts_at bigint = NULL;
    SELECT @starts_at = starts_at FROM dbo.slots
    WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute;
    IF @starts_at <= @now
    BEGIN
        SET @outcome = 3;
        COMMIT TRANSACTION;
        RETURN;
    END

    UPDATE dbo.reservations SET cancelled_at = @now, updated_at = @now WHERE code = @code;
    DELETE dbo.active_persons WITH (SNAPSHOT) WHERE code = @code;
    INSERT dbo.outbox WITH (SNAPSHOT) (kind, code, phone, language, place_id, day, start_minute,
        created_at, sent_at)
    VALUES (2, @code, @held_phone, @language, @place_id, @day, @start_minute, @now, NULL);
    SET @outcome = 1;

    COMMIT TRANSACTION;
END
GO
