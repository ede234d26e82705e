-- Window sync (interpreted): drains the hot change records into the disk history in small
-- batches. Each batch is one transaction that copies and deletes the same rows, so a crash
-- loses or doubles nothing; applying a change is an upsert of the state it carries, so a rerun
-- of the same rows is harmless too.
-- Draining (delete what was copied) rather than a watermark: identities can commit out of
-- order, and a watermark would skip the late one. Changes of one code cannot: they touch the
-- same hot row, so their commit order is their id order.
-- Returns the number of changes flushed as a one-row result.
CREATE OR ALTER PROCEDURE dbo.flush_changes
    @batch_size int = 500
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;

    DECLARE @batch TABLE (
        id           bigint        NOT NULL PRIMARY KEY,
        kind         int           NOT NULL,
        code         varchar(16)   COLLATE Latin1_General_100_BIN2 NOT NULL,
        place_id     int           NOT NULL,
        day          date          NOT NULL,
        start_minute int           NOT NULL,
        seat_no      int           NOT NULL,
        person_hash  varchar(64)   COLLATE Latin1_General_100_BIN2 NOT NULL,
        phone        varchar(16)   NOT NULL,
        name         nvarchar(100) NOT NULL,
        language     varchar(8)    NOT NULL,
        created_at   bigint        NOT NULL,
        at           bigint        NOT NULL,
        latest       bit           NOT NULL DEFAULT (0)
    );
    DECLARE @flushed int = 0;
    DECLARE @n int;

    WHILE 1 = 1
    BEGIN
        DELETE FROM @batch;   -- table variables ignore rollbacks: start every batch empty
        BEGIN TRANSACTION;

        INSERT @batch (id, kind, code, place_id, day, start_minute, seat_no, person_hash, phone, name,
            language, created_at, at)
        SELECT TOP (@batch_size) id, kind, code, place_id, day, start_minute, seat_no, person_hash, phone,
            name, language, created_at, at
        FROM dbo.changes WITH (SNAPSHOT)
        ORDER BY id;
        SET @n = @@ROWCOUNT;
        IF @n = 0
        BEGIN
            COMMIT TRANSACTION;
            BREAK;
        END

        -- Only the last change of a code in this batch matters: it carries the whole state.
        UPDATE b SET latest = 1
        FROM @batch b
        WHERE b.id = (SELECT MAX(x.id) FROM @batch x WHERE x.code = b.code);

        -- updated_at guards against moving a row back to an older state.
        UPDATE r
        SET place_id = b.place_id, day = b.day, start_minute = b.start_minute, seat_no = b.seat_no,
            person_hash = b.person_hash, phone = b.phone, name = b.name, language = b.language,
            created_at = b.created_at,
            cancelled_at = CASE WHEN b.kind = 2 THEN b.at ELSE NULL END,
            updated_at = b.at
        FROM dbo.reservations r
        JOIN @batch b ON b.code = r.code AND b.latest = 1
        WHERE r.updated_at <= b.at;

        INSERT dbo.reservations (code, place_id, day, start_minute, seat_no, person_hash, phone, name,
            language, created_at, cancelled_at, updated_at)
        SELECT b.code, b.place_id, b.day, b.start_minute, b.seat_no, b.person_hash, b.phone, b.name,
            b.language, b.created_at, CASE WHEN b.kind = 2 THEN b.at ELSE NULL END, b.at
        FROM @batch b
        WHERE b.latest = 1
          AND NOT EXISTS (SELECT 1 FROM dbo.reservations r WITH (UPDLOCK, HOLDLOCK) WHERE r.code = b.code);

        DELETE c
        FROM dbo.changes c WITH (SNAPSHOT)
        JOIN @batch b ON b.id = c.id;

        COMMIT TRANSACTION;
        SET @flushed += @n;
        IF @n < @batch_size
            BREAK;
    END

    SELECT @flushed AS flushed;
END
GO
