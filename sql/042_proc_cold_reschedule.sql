-- The cold path (interpreted T-SQL): moves a reservation whose day is from its place's stored
-- horizon on to another cold slot, in one transaction, as ColdReservationStore.RescheduleAsync does.
--   @route   0 Done, 1 NowHot (the held day became hot: nothing changed, the caller asks
--            dbo.reschedule), 2 AcrossWindow (the target day is hot: nothing changed; no single
--            transaction here spans a hot and a cold reservation)
--   @outcome 1 Rescheduled (also for a retry whose move already happened), 2 NotFound (also for a
--            code without its owner's phone or person hash), 3 SlotFull, 4 UnknownSlot,
--            5 SlotStarted (the target), 6 Started (the held reservation)
-- Locks, in this order: the reservation row (UPDLOCK + HOLDLOCK); both places' rows shared and held,
-- lower id first, so two moves between the same places never wait on each other in a circle and the
-- window mover (XLOCK on one place row) cannot move either day in between; the target slot's
-- catalogue row (UPDLOCK + HOLDLOCK) while a seat is picked. The row is changed only after the
-- target slot is locked, so a writer never holds a changed reservation while waiting for a slot.
-- The hot tables are touched WITH (SNAPSHOT) (see dbo.cold_reserve).
CREATE OR ALTER PROCEDURE dbo.cold_reschedule
    @code            varchar(16),
    @phone           varchar(16),   -- null when not given
    @person_hash     varchar(64),   -- null when not given
    @to_place_id     int,
    @to_day          date,
    @to_start_minute int,
    @holder_code     varchar(16),   -- the person row's code: the pair's first code when its second dose moves, else @code
    @now             bigint,
    @route           int OUTPUT,
    @outcome         int OUTPUT
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

    -- Both horizons, the lower place id locked first (one statement would not fix the order).
    DECLARE @low_id int = @place_id;
    DECLARE @high_id int = @to_place_id;
    IF @to_place_id < @place_id
    BEGIN
        SET @low_id = @to_place_id;
        SET @high_id = @place_id;
    END
    DECLARE @low_horizon date = NULL;
    DECLARE @high_horizon date = NULL;
    SELECT @low_horizon = hot_until FROM dbo.places WITH (HOLDLOCK, ROWLOCK) WHERE id = @low_id;
    SELECT @high_horizon = hot_until FROM dbo.places WITH (HOLDLOCK, ROWLOCK) WHERE id = @high_id;
    DECLARE @from_horizon date = @high_horizon;
    IF @place_id = @low_id
        SET @from_horizon = @low_horizon;
    DECLARE @to_horizon date = @high_horizon;
    IF @to_place_id = @low_id
        SET @to_horizon = @low_horizon;

    IF @day < @from_horizon
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

    DECLARE @held_starts_at bigint = NULL;
    SELECT @held_starts_at = starts_at FROM dbo.slots
    WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute;
    IF @held_starts_at <= @now
    BEGIN
        SET @outcome = 6;
        COMMIT TRANSACTION;
        RETURN;
    END

    IF @place_id = @to_place_id AND @day = @to_day AND @start_minute = @to_start_minute
    BEGIN
        SET @outcome = 1;   -- a retried reschedule that already happened
        COMMIT TRANSACTION;
        RETURN;
    END

    -- An unknown target place has no horizon: the slot lookup below answers UnknownSlot.
    IF @to_day < @to_horizon
    BEGIN
        SET @route = 2;
        SET @outcome = 4;
        COMMIT TRANSACTION;
        RETURN;
    END

    DECLARE @capacity int = NULL;
    DECLARE @minutes int = NULL;
    DECLARE @starts_at bigint = NULL;
    SELECT @capacity = capacity, @minutes = minutes, @starts_at = starts_at
    FROM dbo.slots WITH (UPDLOCK, HOLDLOCK, ROWLOCK)
    WHERE place_id = @to_place_id AND day = @to_day AND start_minute = @to_start_minute
      AND closed_by IS NULL;   -- a slot the site closed (sql/064) takes no booking
    IF @capacity IS NULL
        SET @outcome = 4;
    ELSE IF @starts_at <= @now
        SET @outcome = 5;
    ELSE
    BEGIN
        -- The lowest free seat: 1 or one past a taken seat, whichever is free first.
        DECLARE @seat int = NULL;
        SELECT @seat = MIN(candidate.seat_no)
        FROM (SELECT 1 AS seat_no
              UNION ALL
              SELECT r.seat_no + 1 FROM dbo.reservations r
              WHERE r.place_id = @to_place_id AND r.day = @to_day AND r.start_minute = @to_start_minute
                AND r.cancelled_at IS NULL) AS candidate
        WHERE candidate.seat_no <= @capacity
          AND NOT EXISTS (SELECT 1 FROM dbo.reservations x
                          WHERE x.place_id = @to_place_id AND x.day = @to_day
                            AND x.start_minute = @to_start_minute AND x.cancelled_at IS NULL
                            AND x.seat_no = candidate.seat_no);
        IF @seat IS NULL
            SET @outcome = 3;
        ELSE
        BEGIN
            UPDATE dbo.reservations
            SET place_id = @to_place_id, day = @to_day, start_minute = @to_start_minute, seat_no = @seat,
                updated_at = @now
            WHERE code = @code;
            UPDATE dbo.active_persons WITH (SNAPSHOT) SET ends_at = @starts_at + (CONVERT(bigint, @minutes) * 60)
            WHERE code = @holder_code;
            INSERT dbo.outbox WITH (SNAPSHOT) (kind, code, phone, language, place_id, day, start_minute,
                created_at, sent_at)
            VALUES (3, @code, @held_phone, @language, @to_place_id, @to_day, @to_start_minute, @now, NULL);
            SET @outcome = 1;
        END
    END

    COMMIT TRANSACTION;
END
GO
