-- Check-in at the door, as staff_check_in does on PostgreSQL:
--   @status 1 checked in (@held_at, @held_by: this one), 2 already checked in (@held_at, @held_by:
--   the first), 4 not an active booking at this place any more (the citizen's cancel came first).
--
-- Against dbo.cancel exactly one wins. In-Memory OLTP takes no locks: each atomic block reads its
-- own snapshot and conflicts are found on writes (and, above SNAPSHOT, by validation at commit).
-- Reading alone would not do: this proc reads the hot row and inserts into attendance, the cancel
-- reads attendance and deletes the hot row; neither writes what the other writes, so at SNAPSHOT
-- both could commit (write skew: checked in and cancelled). So this proc also writes the hot row
-- (an UPDATE is always a new row version, even when no value changes): now both transactions
-- write the same row version, and the later writer fails at once with 41302, whether the earlier
-- one has committed or not. The adapters retry 41302 (SqlServerRetryPolicy), and the retry runs
-- on a new snapshot that sees the winner: a cancel that lost finds the attendance row and answers
-- 4 (CheckedIn); a check-in that lost finds no hot row and answers 4 (Cancelled). Two check-ins
-- meet on the same row too, and the second answers 2 with the first one's time and staff member.
-- The no-show job (dbo.staff_mark_no_shows, sql/068) inserts attendance rows without touching
-- the hot row: against it the attendance row itself is the shared write (41302, or a duplicate key
-- once the job has committed), retried as well, after which this proc overrides the no-show.
-- Both procs stay at SNAPSHOT, so neither pays for commit-time validation of its reads.
CREATE OR ALTER PROCEDURE dbo.staff_check_in
    @code     varchar(16),
    @place_id int,
    @by       nvarchar(256),
    @now      bigint,
    @status   int OUTPUT,
    @held_at  bigint OUTPUT,
    @held_by  nvarchar(256) OUTPUT
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @state int = NULL;
    DECLARE @first_at bigint = NULL;
    DECLARE @first_by nvarchar(256) = NULL;
    SELECT @state = state, @first_at = at, @first_by = [by]
    FROM dbo.attendance
    WHERE code = @code;
    IF @state = 2
    BEGIN
        SET @status = 2;
        SET @held_at = @first_at;
        SET @held_by = @first_by;
        RETURN;
    END

    DECLARE @day date = NULL;
    SELECT @day = day
    FROM dbo.hot_reservations
    WHERE code = @code AND place_id = @place_id;
    IF @day IS NULL
    BEGIN
        SET @status = 4;
        RETURN;
    END

    -- The write dbo.cancel's DELETE of this row conflicts with (see above); no value changes.
    UPDATE dbo.hot_reservations SET created_at = created_at
    WHERE code = @code;
    IF @state IS NULL
        INSERT dbo.attendance (code, place_id, day, state, at, [by])
        VALUES (@code, @place_id, @day, 2, @now, @by);
    ELSE
        -- Over a no-show (state 3, marked after the slot's end and grace) the late arrival's check-in replaces it.
        UPDATE dbo.attendance SET state = 2, at = @now, [by] = @by
        WHERE code = @code AND state = 3;
    SET @status = 1;
    SET @held_at = @now;
    SET @held_by = @by;
END
GO
