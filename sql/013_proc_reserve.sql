-- The hot path: one seat for one person, in one atomic block. Same rules and outcomes as the
-- SQLite adapter (SqliteHotPath.Reserve):
--   @outcome 1 Reserved, 3 AlreadyBooked, 4 UnknownSlot, 5 SlotStarted (recorded under the
--   idempotency key), 2 SlotFull (not recorded: it writes nothing, and a retry with the same key
--   asks again and books if a seat came back; as on PostgreSQL and SQLite), 8 KeyReused (the key
--   came before with another fingerprint; nothing recorded). @replayed = 1 when the answer is the
--   recorded one.
-- A write-write conflict with a racer fails this block at once with 41302; the client retries.
CREATE OR ALTER PROCEDURE dbo.reserve
    @place_id        int,
    @day             date,
    @start_minute    int,
    @person_hash     varchar(64),
    @phone           varchar(16),
    @name            nvarchar(100),
    @language        varchar(8),
    @new_code        varchar(16),
    @seat_hint       int,            -- non-negative, from the new code's hash: where the seat scan starts
    @idempotency_key varchar(100),
    @fingerprint     varchar(64),
    @now             bigint,         -- Unix seconds
    @outcome         int OUTPUT,
    @code            varchar(16) OUTPUT,
    @replayed        bit OUTPUT
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SET @code = NULL;
    SET @replayed = 0;

    -- 1. A key seen before answers what it answered then, or nothing when the request differs.
    DECLARE @seen_fingerprint varchar(64) = NULL;
    DECLARE @seen_outcome int = NULL;
    DECLARE @seen_code varchar(16) = NULL;
    SELECT @seen_fingerprint = fingerprint, @seen_outcome = outcome, @seen_code = code
    FROM dbo.idempotency
    WHERE [key] = @idempotency_key;
    IF @seen_fingerprint IS NOT NULL
    BEGIN
        IF @seen_fingerprint = @fingerprint
        BEGIN
            SET @outcome = @seen_outcome;
            SET @code = @seen_code;
            SET @replayed = 1;
        END
        ELSE
            SET @outcome = 8;
        RETURN;
    END

    -- 2. One active future reservation per person. The existing code is shown only to the phone
    -- that booked it. A holder whose reservation is beyond the window (cold path) has no hot
    -- row, and a native proc cannot read the disk history: the code then stays hidden.
    DECLARE @held_code varchar(16) = NULL;
    SELECT @held_code = code FROM dbo.active_persons WHERE person_hash = @person_hash AND ends_at > @now;
    IF @held_code IS NOT NULL
    BEGIN
        DECLARE @held_phone varchar(16) = NULL;
        SELECT @held_phone = phone FROM dbo.hot_reservations WHERE code = @held_code;
        SET @outcome = 3;
        IF @held_phone = @phone
            SET @code = @held_code;
    END
    ELSE
    BEGIN
        -- 3. The slot: unknown, started, or the seat to take.
        DECLARE @capacity int = 0;
        DECLARE @minutes int = NULL;
        DECLARE @starts_at bigint = NULL;
        SELECT @capacity = COUNT(*), @minutes = MIN(minutes), @starts_at = MIN(starts_at)
        FROM dbo.hot_seats
        WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute;

        IF @capacity = 0
            SET @outcome = 4;
        ELSE IF @starts_at <= @now
            SET @outcome = 5;
        ELSE
        BEGIN
            -- Racers on one popular slot start at different seats and wrap around, so they
            -- rarely pick the same row (a shared row means 41302 for all but one).
            DECLARE @first int = (@seat_hint % @capacity) + 1;
            DECLARE @seat int = NULL;
            SELECT TOP (1) @seat = seat_no FROM dbo.hot_seats
            WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute
              AND seat_no >= @first AND hold = 0 AND code IS NULL
            ORDER BY seat_no;
            IF @seat IS NULL
                SELECT TOP (1) @seat = seat_no FROM dbo.hot_seats
                WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute
                  AND seat_no < @first AND hold = 0 AND code IS NULL
                ORDER BY seat_no;

            DECLARE @taken int = 0;
            IF @seat IS NOT NULL
            BEGIN
                UPDATE dbo.hot_seats SET code = @new_code
                WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute
                  AND seat_no = @seat AND hold = 0 AND code IS NULL;
                SET @taken = @@ROWCOUNT;
            END

            IF @taken = 0
                SET @outcome = 2;
            ELSE
            BEGIN
                INSERT dbo.hot_reservations (code, place_id, day, start_minute, seat_no, minutes, starts_at,
                    person_hash, phone, name, language, created_at)
                VALUES (@new_code, @place_id, @day, @start_minute, @seat, @minutes, @starts_at,
                    @person_hash, @phone, @name, @language, @now);

                -- A stale row (its reservation already over) is simply replaced; no MERGE here.
                DECLARE @ends_at bigint = @starts_at + (@minutes * 60);
                UPDATE dbo.active_persons SET code = @new_code, ends_at = @ends_at WHERE person_hash = @person_hash;
                IF @@ROWCOUNT = 0
                    INSERT dbo.active_persons (person_hash, code, ends_at) VALUES (@person_hash, @new_code, @ends_at);

                -- The SMS and the change record for the disk tables, in the same atomic block.
                INSERT dbo.outbox (kind, code, phone, language, place_id, day, start_minute, created_at, sent_at)
                VALUES (1, @new_code, @phone, @language, @place_id, @day, @start_minute, @now, NULL);
                INSERT dbo.changes (kind, code, place_id, day, start_minute, seat_no, person_hash, phone, name,
                    language, created_at, at)
                VALUES (1, @new_code, @place_id, @day, @start_minute, @seat, @person_hash, @phone, @name,
                    @language, @now, @now);

                SET @outcome = 1;
                SET @code = @new_code;
            END
        END
    END

    -- 4. Remember the answer under the key, a slot full excepted (see the header). A racer with
    -- the same key that committed first makes this insert fail (2627 or 41325); the client's
    -- retry then replays its answer.
    IF @outcome <> 2
        INSERT dbo.idempotency ([key], fingerprint, outcome, code, created_at)
        VALUES (@idempotency_key, @fingerprint, @outcome, @code, @now);
END
GO
