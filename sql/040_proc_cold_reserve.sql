-- The cold path (interpreted T-SQL): one reservation for a day from the place's stored horizon on,
-- written to the disk tables in one transaction, with the hot path's outcomes and the rules of
-- ColdReservationStore (the EF Core cold path of SQLite and PostgreSQL):
--   @route   0 Done, 1 NowHot (the day became hot: nothing changed, the caller asks dbo.reserve)
--   @outcome 1 Reserved, 2 SlotFull, 3 AlreadyBooked, 4 UnknownSlot, 5 SlotStarted (recorded under
--            the idempotency key), 8 KeyReused (nothing recorded); @replayed = 1 for a recorded answer.
-- Locks, in the order every cold writer takes them:
--   1. the place row, shared and held (HOLDLOCK = S to the end): cold writers of one place run side
--      by side; the window mover (dbo.load_hot_days) asks for X on the same row, so it waits for
--      them and they wait for it, and a day never becomes hot half-way through this write;
--   2. the slot's catalogue row, UPDLOCK + HOLDLOCK: one writer at a time picks a seat of a slot.
-- The hot tables are touched WITH (SNAPSHOT): the only isolation an explicit transaction may use on
-- memory-optimized tables next to locking reads of disk tables (41368 otherwise). Racers on the same
-- hot row (same key, same person, hot or cold) fail at once with 41302 (or 2627 / 41325 on a key a
-- racer committed first); the whole transaction rolls back and the client's retry replays the
-- recorded answer or answers AlreadyBooked.
CREATE OR ALTER PROCEDURE dbo.cold_reserve
    @place_id        int,
    @day             date,
    @start_minute    int,
    @person_hash     varchar(64),
    @phone           varchar(16),
    @name            nvarchar(100),
    @language        varchar(8),
    @new_code        varchar(16),
    @idempotency_key varchar(100),
    @fingerprint     varchar(64),
    @now             bigint,         -- Unix seconds
    @route           int OUTPUT,
    @outcome         int OUTPUT,
    @code            varchar(16) OUTPUT,
    @replayed        bit OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    SET @route = 0;
    SET @outcome = NULL;
    SET @code = NULL;
    SET @replayed = 0;

    BEGIN TRANSACTION;

    -- 1. The horizon under the place's row lock. An unknown place has no horizon and no slots: the
    -- flow below answers UnknownSlot.
    DECLARE @horizon date = NULL;
    SELECT @horizon = hot_until FROM dbo.places WITH (HOLDLOCK, ROWLOCK) WHERE id = @place_id;
    IF @day < @horizon
    BEGIN
        SET @route = 1;
        COMMIT TRANSACTION;
        RETURN;
    END

    -- 2. The key first: a repeat replays what it answered, another request under it gets 8.
    DECLARE @seen_fingerprint varchar(64) = NULL;
    DECLARE @seen_outcome int = NULL;
    DECLARE @seen_code varchar(16) = NULL;
    SELECT @seen_fingerprint = fingerprint, @seen_outcome = outcome, @seen_code = code
    FROM dbo.idempotency WITH (SNAPSHOT)
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
        COMMIT TRANSACTION;
        RETURN;
    END
    INSERT dbo.idempotency WITH (SNAPSHOT) ([key], fingerprint, outcome, code, created_at)
    VALUES (@idempotency_key, @fingerprint, 0, NULL, @now);

    -- 3. The slot's catalogue row, locked while a seat is picked.
    DECLARE @capacity int = NULL;
    DECLARE @minutes int = NULL;
    DECLARE @starts_at bigint = NULL;
    SELECT @capacity = capacity, @minutes = minutes, @starts_at = starts_at
    FROM dbo.slots WITH (UPDLOCK, HOLDLOCK, ROWLOCK)
    WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute
      AND closed_by IS NULL;   -- a slot the site closed (sql/064) takes no booking: as if it were not there

    -- 4. The person's active reservation (hot or cold) answers first, as on the hot path; its code
    -- only to the phone that made it. A row whose reservation is over is stale and gets replaced.
    DECLARE @held_code varchar(16) = NULL;
    DECLARE @held_ends_at bigint = NULL;
    SELECT @held_code = code, @held_ends_at = ends_at
    FROM dbo.active_persons WITH (SNAPSHOT)
    WHERE person_hash = @person_hash;

    IF @held_code IS NOT NULL AND @held_ends_at > @now
    BEGIN
        DECLARE @held_phone varchar(16) = NULL;
        SELECT @held_phone = phone FROM dbo.hot_reservations WITH (SNAPSHOT) WHERE code = @held_code;
        IF @held_phone IS NULL
            SELECT @held_phone = phone FROM dbo.reservations WHERE code = @held_code;
        SET @outcome = 3;
        IF @held_phone = @phone
            SET @code = @held_code;
    END
    ELSE IF @capacity IS NULL
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
              WHERE r.place_id = @place_id AND r.day = @day AND r.start_minute = @start_minute
                AND r.cancelled_at IS NULL) AS candidate
        WHERE candidate.seat_no <= @capacity
          AND NOT EXISTS (SELECT 1 FROM dbo.reservations x
                          WHERE x.place_id = @place_id AND x.day = @day AND x.start_minute = @start_minute
                            AND x.cancelled_at IS NULL AND x.seat_no = candidate.seat_no);

        IF @seat IS NULL
            SET @outcome = 2;
        ELSE
        BEGIN
            -- One active reservation per person: claim the person's row (a racer on it gets 41302).
            DECLARE @ends_at bigint = @starts_at + (CONVERT(bigint, @minutes) * 60);
            IF @held_code IS NULL
                INSERT dbo.active_persons WITH (SNAPSHOT) (person_hash, code, ends_at)
                VALUES (@person_hash, @new_code, @ends_at);
            ELSE
            BEGIN
                UPDATE dbo.active_persons WITH (SNAPSHOT) SET code = @new_code, ends_at = @ends_at
                WHERE person_hash = @person_hash AND ends_at <= @now;
                IF @@ROWCOUNT = 0
                    THROW 50040, N'cold_reserve: the person row changed under the transaction', 1;
            END

            INSERT dbo.reservations (code, place_id, day, start_minute, seat_no, person_hash, phone, name,
                language, created_at, cancelled_at, updated_at)
            VALUES (@new_code, @place_id, @day, @start_minute, @seat, @person_hash, @phone, @name,
                @language, @now, NULL, @now);

            -- The SMS in the same transaction. No change record: the disk row is the reservation,
            -- and dbo.load_hot_days copies it when its day moves into the window.
            INSERT dbo.outbox WITH (SNAPSHOT) (kind, code, phone, language, place_id, day, start_minute,
                created_at, sent_at)
            VALUES (1, @new_code, @phone, @language, @place_id, @day, @start_minute, @now, NULL);

            SET @outcome = 1;
            SET @code = @new_code;
        END
    END

    -- 5. The answer under the key.
    UPDATE dbo.idempotency WITH (SNAPSHOT) SET outcome = @outcome, code = @code
    WHERE [key] = @idempotency_key;

    COMMIT TRANSACTION;
END
GO
