-- Superseded by 063_proc_cancel.sql, the body that runs: it also refuses a booking checked in at
-- the door (outcome 4). That check reads dbo.attendance (060), which does not exist yet when a fresh
-- database replays the numbered scripts in order and reaches this one, so the change is a later
-- script rather than an edit here; this first body is kept as the deploy history it is.
-- Cancels a hot reservation, as SqliteHotPath.Cancel does. Proof is the phone that booked it or
-- the person's hash; a code without either reveals nothing (NotFound).
--   @outcome 1 Cancelled, 2 NotFound, 3 Started
CREATE OR ALTER PROCEDURE dbo.cancel
    @code        varchar(16),
    @phone       varchar(16),   -- null when not given
    @person_hash varchar(64),   -- null when not given
    @now         bigint,
    @outcome     int OUTPUT
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @found varchar(16) = NULL;
    DECLARE @place_id int, @day date, @start_minute int, @seat_no int, @starts_at bigint,
        @held_phone varchar(16), @held_person varchar(64), @name nvarchar(100), @language varchar(8),
        @created_at bigint;
    SELECT @found = code, @place_id = place_id, @day = day, @start_minute = start_minute, @seat_no = seat_no,
        @starts_at = starts_at, @held_phone = phone, @held_person = person_hash, @name = name,
        @language = language, @created_at = created_at
    FROM dbo.hot_reservations
    WHERE code = @code;

    IF @found IS NULL
        OR NOT ((@phone IS NOT NULL AND @phone = @held_phone)
             OR (@person_hash IS NOT NULL AND @person_hash = @held_person))
    BEGIN
        SET @outcome = 2;
        RETURN;
    END
    IF @starts_at <= @now
    BEGIN
        SET @outcome = 3;
        RETURN;
    END

    INSERT dbo.outbox (kind, code, phone, language, place_id, day, start_minute, created_at, sent_at)
    VALUES (2, @code, @held_phone, @language, @place_id, @day, @start_minute, @now, NULL);
    INSERT dbo.changes (kind, code, place_id, day, start_minute, seat_no, person_hash, phone, name,
        language, created_at, at)
    VALUES (2, @code, @place_id, @day, @start_minute, @seat_no, @held_person, @held_phone, @name,
        @language, @created_at, @now);

    UPDATE dbo.hot_seats SET code = NULL
    WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute AND seat_no = @seat_no
      AND code = @code;
    DELETE dbo.hot_reservations WHERE code = @code;
    DELETE dbo.active_persons WHERE code = @code;
    SET @outcome = 1;
END
GO
