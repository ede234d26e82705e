-- Cancels a hot reservation, as SqliteHotPath.Cancel and slots_cancel do. Proof is the phone that
-- booked it or the person's hash; a code without either reveals nothing (NotFound).
--   @outcome 1 Cancelled, 2 NotFound, 3 Started, 4 CheckedIn (at the door: the visit happened)
-- The one live definition of dbo.cancel. It comes after every table it reads (a schema-bound proc
-- compiles only against tables that exist): the door's attendance (060) and the waiting list's
-- wanted days (083).
-- A seat freed on a day the place's waiting list wants is kept for the line (code NULL, hold 1, no
-- offer), as slots_release_seat does on PostgreSQL: the offer job offers it to the first in line,
-- and neither dbo.reserve nor dbo.availability sees it meanwhile.
-- Against dbo.staff_check_in exactly one wins, although both run at SNAPSHOT and this reads
-- attendance without validation: the check-in also writes the hot row this deletes, so the later
-- of the two writers gets 41302 at once and its retry sees the winner (062_proc_staff_check_in.sql).
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
    DECLARE @checked_in bigint = NULL;
    SELECT @checked_in = at FROM dbo.attendance WHERE code = @code AND state = 2;
    IF @checked_in IS NOT NULL
    BEGIN
        SET @outcome = 4;
        RETURN;
    END

    INSERT dbo.outbox (kind, code, phone, language, place_id, day, start_minute, created_at, sent_at)
    VALUES (2, @code, @held_phone, @language, @place_id, @day, @start_minute, @now, NULL);
    INSERT dbo.changes (kind, code, place_id, day, start_minute, seat_no, person_hash, phone, name,
        language, created_at, at)
    VALUES (2, @code, @place_id, @day, @start_minute, @seat_no, @held_person, @held_phone, @name,
        @language, @created_at, @now);

    DECLARE @release smallint = 0, @wanted_from date = NULL, @wanted_to date = NULL;
    SELECT @wanted_from = from_day, @wanted_to = to_day FROM dbo.waitlist_wanted WHERE place_id = @place_id;
    IF @wanted_from IS NOT NULL AND @day >= @wanted_from AND @day <= @wanted_to
        SET @release = 1;
    UPDATE dbo.hot_seats SET code = NULL, hold = @release
    WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute AND seat_no = @seat_no
      AND code = @code;
    DELETE dbo.hot_reservations WHERE code = @code;
    DELETE dbo.active_persons WHERE code = @code;
    SET @outcome = 1;
END
GO
