-- A pair's second dose (issue 41 item 3), inside the caller's transaction: dbo.reserve_pair after the
-- first dose, dbo.waitlist_claim after the held seat it books. It opens and ends no transaction, so a
-- caller that finds no seat (@day2 NULL) rolls its own back whole and nothing is half a pair.
-- The earliest free seat of @service_id at the place from @day2_from to @day2_to at @minute2:
--   * a hot day first (they all come before the horizon): the seat claimed with the update that
--     checks it is still free; a racer that took it fails the caller's transaction with a write
--     conflict (41302), which the adapter retries;
--   * else a disk day from the place's horizon on (the place's row under a shared lock held to the
--     end: the window mover takes it exclusively), each candidate slot's row under an update lock
--     held to the end, in day order (every writer of seats locks slots in the order of their days),
--     and its lowest seat without an active reservation.
-- The second dose's hot row has its change record and no SMS of its own (one confirms both); the
-- link goes to dbo.dose_pairs and the person's row (@first_code's) is held until the second dose ends.
-- Interpreted: the disk tables are beyond native code; the hot ones are touched WITH (SNAPSHOT).
CREATE OR ALTER PROCEDURE dbo.seat_second_dose
    @place_id     int,
    @service_id   int,
    @person_hash  varchar(64),
    @phone        varchar(16),
    @name         nvarchar(100),
    @language     varchar(8),
    @first_code   varchar(16),
    @second_code  varchar(16),
    @day2_from    date,
    @day2_to      date,
    @minute2      int,
    @now          bigint,
    @day2         date OUTPUT,
    @minutes2     int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    SELECT @day2 = NULL, @minutes2 = NULL;
    DECLARE @horizon date = (SELECT hot_until FROM dbo.places WITH (HOLDLOCK) WHERE id = @place_id);
    DECLARE @seat int = NULL, @starts bigint = NULL;
    SELECT TOP (1) @day2 = day, @seat = seat_no, @minutes2 = minutes, @starts = starts_at
    FROM dbo.hot_seats WITH (SNAPSHOT)
    WHERE place_id = @place_id AND service_id = @service_id AND start_minute = @minute2
      AND day BETWEEN @day2_from AND @day2_to AND code IS NULL AND hold = 0 AND starts_at > @now
    ORDER BY day, seat_no;
    IF @seat IS NOT NULL
    BEGIN
        UPDATE dbo.hot_seats WITH (SNAPSHOT) SET code = @second_code
        WHERE place_id = @place_id AND day = @day2 AND start_minute = @minute2 AND service_id = @service_id
          AND seat_no = @seat AND code IS NULL;
        INSERT dbo.hot_reservations WITH (SNAPSHOT) (code, place_id, day, start_minute, service_id, seat_no, minutes, starts_at,
                                     person_hash, phone, name, language, created_at)
        VALUES (@second_code, @place_id, @day2, @minute2, @service_id, @seat, @minutes2, @starts,
                @person_hash, @phone, @name, @language, @now);
        INSERT dbo.changes WITH (SNAPSHOT) (kind, code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name,
                            language, created_at, at)
        VALUES (1, @second_code, @place_id, @day2, @minute2, @service_id, @seat, @person_hash, @phone, @name,
                @language, @now, @now);
    END
    ELSE
    BEGIN
        DECLARE @candidate date, @capacity int, @candidate_minutes int, @candidate_starts bigint;
        DECLARE candidates CURSOR LOCAL FAST_FORWARD FOR
            SELECT day FROM dbo.slots
            WHERE place_id = @place_id AND service_id = @service_id AND start_minute = @minute2
              AND day >= @horizon AND day BETWEEN @day2_from AND @day2_to AND closed_by IS NULL AND starts_at > @now
            ORDER BY day;
        OPEN candidates;
        FETCH NEXT FROM candidates INTO @candidate;
        WHILE @@FETCH_STATUS = 0 AND @seat IS NULL
        BEGIN
            SELECT @capacity = capacity, @candidate_minutes = minutes, @candidate_starts = starts_at
            FROM dbo.slots WITH (UPDLOCK, HOLDLOCK)
            WHERE place_id = @place_id AND day = @candidate AND start_minute = @minute2 AND service_id = @service_id
              AND closed_by IS NULL;
            SELECT @seat = MIN(n.seat_no)
            FROM (SELECT TOP (@capacity) ROW_NUMBER() OVER (ORDER BY (SELECT NULL)) AS seat_no FROM sys.all_objects) AS n
            WHERE NOT EXISTS (SELECT 1 FROM dbo.reservations r
                              WHERE r.place_id = @place_id AND r.day = @candidate AND r.start_minute = @minute2
                                AND r.service_id = @service_id AND r.seat_no = n.seat_no AND r.cancelled_at IS NULL);
            IF @seat IS NOT NULL
            BEGIN
                SELECT @day2 = @candidate, @minutes2 = @candidate_minutes, @starts = @candidate_starts;
                INSERT dbo.reservations (code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name,
                                         language, created_at, cancelled_at, updated_at)
                VALUES (@second_code, @place_id, @candidate, @minute2, @service_id, @seat, @person_hash, @phone, @name,
                        @language, @now, NULL, @now);
            END;
            FETCH NEXT FROM candidates INTO @candidate;
        END;
        CLOSE candidates;
        DEALLOCATE candidates;
    END;

    IF @seat IS NULL
        RETURN;
    INSERT dbo.dose_pairs (first_code, second_code, service_id, created_at) VALUES (@first_code, @second_code, @service_id, @now);
    UPDATE dbo.active_persons WITH (SNAPSHOT) SET ends_at = @starts + @minutes2 * 60
    WHERE person_hash = @person_hash AND code = @first_code;
END
GO
