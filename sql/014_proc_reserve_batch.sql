-- Many reservations in one round trip and one commit: each row gets exactly what dbo.reserve
-- would answer it. The whole batch is one atomic block, so a conflict (41302) on any row rolls
-- back all of them and the client retries the batch; replayed keys answer from the first run.
-- Answers: request_no, outcome, code, replayed, minutes (the booked slot's length, or NULL).
CREATE OR ALTER PROCEDURE dbo.reserve_batch
    @requests dbo.reserve_request READONLY,
    @now      bigint
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    DECLARE @answers dbo.reserve_answer;
    DECLARE @request_no int = -1;   -- the client numbers requests from 0
    DECLARE @next int = NULL;
    DECLARE @more bit = 1;          -- a flag, not BREAK: the native surface lists WHILE but not BREAK
    DECLARE @place_id int, @day date, @start_minute int, @person_hash varchar(64), @phone varchar(16),
        @name nvarchar(100), @language varchar(8), @new_code varchar(16), @seat_hint int,
        @idempotency_key varchar(100), @fingerprint varchar(64);
    DECLARE @outcome int, @code varchar(16), @replayed bit;

    WHILE @more = 1
    BEGIN
        -- No cursors in native code: walk the request numbers through the type's index.
        SET @next = NULL;
        SELECT TOP (1) @next = request_no, @place_id = place_id, @day = day, @start_minute = start_minute,
            @person_hash = person_hash, @phone = phone, @name = name, @language = language,
            @new_code = new_code, @seat_hint = seat_hint, @idempotency_key = idempotency_key,
            @fingerprint = fingerprint
        FROM @requests
        WHERE request_no > @request_no
        ORDER BY request_no;
        IF @next IS NULL
            SET @more = 0;
        ELSE
        BEGIN
            SET @request_no = @next;

            EXEC dbo.reserve @place_id = @place_id, @day = @day, @start_minute = @start_minute,
                @person_hash = @person_hash, @phone = @phone, @name = @name, @language = @language,
                @new_code = @new_code, @seat_hint = @seat_hint, @idempotency_key = @idempotency_key,
                @fingerprint = @fingerprint, @now = @now,
                @outcome = @outcome OUTPUT, @code = @code OUTPUT, @replayed = @replayed OUTPUT;

            INSERT @answers (request_no, outcome, code, replayed) VALUES (@request_no, @outcome, @code, @replayed);
        END
    END

    -- A booking's answer carries its slot's length, so the API's 201 reads nothing back; a
    -- replay whose booking is gone since (cancelled, flushed out) has none, and the API asks.
    SELECT a.request_no, a.outcome, a.code, a.replayed, r.minutes
    FROM @answers a
    LEFT OUTER JOIN dbo.hot_reservations r ON r.code = a.code
    ORDER BY a.request_no;
END
GO
