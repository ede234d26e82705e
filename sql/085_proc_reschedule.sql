-- Moves a hot reservation to another slot, as SqliteHotPath.Reschedule does.
--   @outcome 1 Rescheduled, 2 NotFound, 3 SlotFull, 4 UnknownSlot, 5 SlotStarted (the target),
--   6 Started (the held reservation), 13 CheckedIn (the door checked it in before its start: the
--   visit is under way where it was booked). Against dbo.staff_check_in exactly one wins: both write
--   the hot row, so the later writer gets 41302 and its retry sees the winner.
-- The one live definition of dbo.reschedule, after the waiting list's wanted days (083) it reads:
-- the seat moved away from is kept for the line (code NULL, hold 1, no offer) when the place's
-- waiting list wants its day, as slots_release_seat does on PostgreSQL.
-- Order of writes: In-Memory OLTP takes no locks, so no deadlock is possible; a clash is a 41302
-- for the later writer at once. The two seat rows are still written in key order, so two moves
-- that cross each other's slots clash on the first row and the loser stops before doing more.
CREATE OR ALTER PROCEDURE dbo.reschedule
    @code             varchar(16),
    @phone            varchar(16),   -- null when not given
    @person_hash      varchar(64),   -- null when not given
    @to_place_id      int,
    @to_day           date,
    @to_start_minute  int,
    @holder_code      varchar(16),   -- the person row's code: the pair's first code when its second dose moves, else @code
    @seat_hint        int,
    @now              bigint,
    @outcome          int OUTPUT
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
        SET @outcome = 6;
        RETURN;
    END
    IF @place_id = @to_place_id AND @day = @to_day AND @start_minute = @to_start_minute
    BEGIN
        SET @outcome = 1;   -- a retried reschedule that already happened
        RETURN;
    END
    DECLARE @checked_in bigint = NULL;
    SELECT @checked_in = at FROM dbo.attendance WHERE code = @code AND state = 2;
    IF @checked_in IS NOT NULL
    BEGIN
        SET @outcome = 13;
        RETURN;
    END

    DECLARE @capacity int = 0;
    DECLARE @minutes int = NULL;
    DECLARE @to_starts_at bigint = NULL;
    SELECT @capacity = COUNT(*), @minutes = MIN(minutes), @to_starts_at = MIN(starts_at)
    FROM dbo.hot_seats
    WHERE place_id = @to_place_id AND day = @to_day AND start_minute = @to_start_minute;
    IF @capacity = 0
    BEGIN
        SET @outcome = 4;
        RETURN;
    END
    IF @to_starts_at <= @now
    BEGIN
        SET @outcome = 5;
        RETURN;
    END

    DECLARE @first int = (@seat_hint % @capacity) + 1;
    DECLARE @seat int = NULL;
    SELECT TOP (1) @seat = seat_no FROM dbo.hot_seats
    WHERE place_id = @to_place_id AND day = @to_day AND start_minute = @to_start_minute
      AND seat_no >= @first AND hold = 0 AND code IS NULL
    ORDER BY seat_no;
    IF @seat IS NULL
        SELECT TOP (1) @seat = seat_no FROM dbo.hot_seats
        WHERE place_id = @to_place_id AND day = @to_day AND start_minute = @to_start_minute
          AND seat_no < @first AND hold = 0 AND code IS NULL
        ORDER BY seat_no;
    IF @seat IS NULL
    BEGIN
        SET @outcome = 3;
        RETURN;
    END

    -- Is the target seat's key below the held one? Then it is written first.
    DECLARE @target_first bit = 0;
    IF @to_place_id < @place_id
        OR (@to_place_id = @place_id AND @to_day < @day)
        OR (@to_place_id = @place_id AND @to_day = @day AND @to_start_minute < @start_minute)
        SET @target_first = 1;

    DECLARE @release smallint = 0, @wanted_from date = NULL, @wanted_to date = NULL;
    SELECT @wanted_from = from_day, @wanted_to = to_day FROM dbo.waitlist_wanted WHERE place_id = @place_id;
    IF @wanted_from IS NOT NULL AND @day >= @wanted_from AND @day <= @wanted_to
        SET @release = 1;

    DECLARE @taken int = 0;
    IF @target_first = 0
        UPDATE dbo.hot_seats SET code = NULL, hold = @release
        WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute AND seat_no = @seat_no
          AND code = @code;
    UPDATE dbo.hot_seats SET code = @code
    WHERE place_id = @to_place_id AND day = @to_day AND start_minute = @to_start_minute AND seat_no = @seat
      AND hold = 0 AND code IS NULL;
    SET @taken = @@ROWCOUNT;
    IF @target_first = 1
        UPDATE dbo.hot_seats SET code = NULL, hold = @release
        WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute AND seat_no = @seat_no
          AND code = @code;
    IF @taken = 0
        -- Cannot happen under SNAPSHOT (the seat was seen free in this snapshot); if it did, the
        -- atomic block rolls back the release above.
        THROW 50001, N'reschedule: the chosen seat was not free', 1;

    UPDATE dbo.hot_reservations
    SET place_id = @to_place_id, day = @to_day, start_minute = @to_start_minute, seat_no = @seat,
        minutes = @minutes, starts_at = @to_starts_at
    WHERE code = @code;
    UPDATE dbo.active_persons SET ends_at = @to_starts_at + (@minutes * 60) WHERE code = @holder_code;

    INSERT dbo.outbox (kind, code, phone, language, place_id, day, start_minute, created_at, sent_at)
    VALUES (3, @code, @held_phone, @language, @to_place_id, @to_day, @to_start_minute, @now, NULL);
    INSERT dbo.changes (kind, code, place_id, day, start_minute, seat_no, person_hash, phone, name,
        language, created_at, at)
    VALUES (3, @code, @to_place_id, @to_day, @to_start_minute, @seat, @held_person, @held_phone, @name,
        @language, @created_at, @now);
    SET @outcome = 1;
END
GO
