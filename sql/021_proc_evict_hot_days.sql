-- Window sync (interpreted): removes a place's ended days from the hot tables, after a last
-- flush, in small autocommit batches so the hot path never waits behind one big delete. Also
-- trims what has simply aged out: persons whose reservation is over, idempotency keys and sent
-- SMS older than a day.
-- A day before @before (the place's local today) has only started slots, and started slots take
-- no reserve, cancel or reschedule, so nothing new can arrive for them after the flush; rows
-- with a change still pending are kept for the next run anyway.
CREATE OR ALTER PROCEDURE dbo.evict_hot_days
    @place_id   int,
    @before     date,
    @now        bigint,
    @batch_size int = 1000
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;

    EXEC dbo.flush_changes;

    DECLARE @n int = 1;
    WHILE @n > 0
    BEGIN
        DELETE TOP (@batch_size) FROM dbo.hot_reservations WITH (SNAPSHOT)
        WHERE place_id = @place_id AND day < @before
          AND code NOT IN (SELECT c.code FROM dbo.changes c WITH (SNAPSHOT));
        SET @n = @@ROWCOUNT;
    END

    SET @n = 1;
    WHILE @n > 0
    BEGIN
        DELETE TOP (@batch_size) FROM dbo.hot_seats WITH (SNAPSHOT)
        WHERE place_id = @place_id AND day < @before
          AND (code IS NULL OR code NOT IN (SELECT r.code FROM dbo.hot_reservations r WITH (SNAPSHOT)));
        SET @n = @@ROWCOUNT;
    END

    SET @n = 1;
    WHILE @n > 0
    BEGIN
        DELETE TOP (@batch_size) FROM dbo.active_persons WITH (SNAPSHOT) WHERE ends_at <= @now;
        SET @n = @@ROWCOUNT;
    END

    SET @n = 1;
    WHILE @n > 0
    BEGIN
        DELETE TOP (@batch_size) FROM dbo.idempotency WITH (SNAPSHOT) WHERE created_at < @now - 86400;
        SET @n = @@ROWCOUNT;
    END

    SET @n = 1;
    WHILE @n > 0
    BEGIN
        DELETE TOP (@batch_size) FROM dbo.outbox WITH (SNAPSHOT) WHERE sent_at < @now - 86400;
        SET @n = @@ROWCOUNT;
    END
END
GO
