-- Both doses in one booking (issue 41 item 3): the first dose through the native dbo.reserve (a hot
-- day) or dbo.cold_reserve (a disk day), the second at the earliest free seat of @service_id at the place from @day2_from to @day2_to at
-- @minute2, in ONE transaction, so a pair commits whole or not at all. Interpreted, because the
-- second dose usually lies beyond the hot window on the disk tables, which a natively compiled
-- proc cannot reach: this is a cross-container transaction (memory-optimized and disk tables), its
-- memory-optimized reads under SNAPSHOT (MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT, sql/001), its disk
-- reads under the locks below. The second dose takes:
--   * a hot day first (they all come before the horizon): the seat claimed with the update that
--     checks it is still free; a racer that took it fails this transaction with a write conflict
--     (41302), which the adapter retries as it retries dbo.reserve;
--   * else a disk day from the place's horizon on (the place's row is held from the start), each
--     candidate slot's row under an update lock held to the end, in day order (every writer of seats locks slots in the order of their
--     days), and its lowest seat without an active reservation.
-- The second dose's hot row has its change record and no SMS of its own (one confirms both); the
-- link goes to dbo.dose_pairs and the person's row is held until the second dose ends. No seat
-- for the second dose: everything is rolled back, the key included (a retry asks again), and
-- @outcome is 12 (SecondDoseFull). A replay (the key seen before) answers as dbo.reserve does.
CREATE OR ALTER PROCEDURE dbo.reserve_pair
    @place_id        int,
    @day             date,
    @start_minute    int,
    @service_id      int,
    @person_hash     varchar(64),
    @phone           varchar(16),
    @name            nvarchar(100),
    @language        varchar(8),
    @new_code        varchar(16),
    @seat_hint       int,
    @idempotency_key varchar(100),
    @fingerprint     varchar(64),
    @now             bigint,
    @second_code     varchar(16),
    @day2_from       date,
    @day2_to         date,
    @minute2         int,
    @outcome         int OUTPUT,
    @code            varchar(16) OUTPUT,
    @replayed        bit OUTPUT,
    @day2            date OUTPUT,
    @minutes2        int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    SET @day2 = NULL;
    SET @minutes2 = NULL;
    BEGIN TRANSACTION;
    -- The place's row under a shared lock held to the end: the window mover takes it exclusively, so
    -- the first dose's side of the horizon, and the disk days of the second, hold until the commit.
    DECLARE @horizon date = (SELECT hot_until FROM dbo.places WITH (HOLDLOCK) WHERE id = @place_id);
    DECLARE @route int = 0;
    IF @day >= @horizon
        -- Its own BEGIN and COMMIT nest inside this transaction: nothing commits before this proc does.
        EXEC dbo.cold_reserve @place_id, @day, @start_minute, @person_hash, @phone, @name, @language, @new_code,
            @idempotency_key, @fingerprint, @now, @route OUTPUT, @outcome OUTPUT, @code OUTPUT, @replayed OUTPUT;
    ELSE
        EXEC dbo.reserve @place_id, @day, @start_minute, @person_hash, @phone, @name, @language, @new_code, @seat_hint,
            @idempotency_key, @fingerprint, @now, @outcome OUTPUT, @code OUTPUT, @replayed OUTPUT;
    IF @route <> 0 OR @outcome <> 1 OR @replayed = 1
    BEGIN
        COMMIT TRANSACTION;
        RETURN;
    END;

    DECLARE @seat int = NULL, @starts bigint = NULL;
    SELECT TOP (1) @day2 = day, @seat = seat_no, @minutes2 = minutes, @starts = starts_at
    FROM dbo.hot_seats
    WHERE place_id = @place_id AND service_id = @service_id AND start_minute = @minute2
      AND day BETWEEN @day2_from AND @day2_to AND code IS NULL AND hold = 0 AND starts_at > @now
    ORDER BY day, seat_no;
    IF @seat IS NOT NULL
    BEGIN
        UPDATE dbo.hot_seats SET code = @second_code
        WHERE place_id = @place_id AND day = @day2 AND start_minute = @minute2 AND service_id = @service_id
          AND seat_no = @seat AND code IS NULL;
        INSERT dbo.hot_reservations (code, place_id, day, start_minute, service_id, seat_no, minutes, starts_at,
                                     person_hash, phone, name, language, created_at)
        VALUES (@second_code, @place_id, @day2, @minute2, @service_id, @seat, @minutes2, @starts,
                @person_hash, @phone, @name, @language, @now);
        INSERT dbo.changes (kind, code, place_id, day, start_minute, service_id, seat_no, person_hash, phone, name,
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
    BEGIN
        ROLLBACK TRANSACTION;
        SELECT @outcome = 12, @code = NULL, @day2 = NULL, @minutes2 = NULL;
        RETURN;
    END;
    INSERT dbo.dose_pairs (first_code, second_code, service_id, created_at) VALUES (@new_code, @second_code, @service_id, @now);
    UPDATE dbo.active_persons SET ends_at = @starts + @minutes2 * 60
    WHERE person_hash = @person_hash AND code = @new_code;
    COMMIT TRANSACTION;
END
GO
