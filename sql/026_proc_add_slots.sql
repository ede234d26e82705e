-- Slot generation (interpreted): adds the slots of @slots that one place's catalogue lacks, and
-- gives the ones on days already inside the window (before the place's horizon) their hot seats
-- in the same transaction, so the window never misses a slot. Slots already in the catalogue are
-- kept as they are. Under the place's row lock, the one dbo.load_hot_days takes, so a window move
-- and a generation for one place never interleave; two generations for one place queue.
-- @dry_run = 1 counts and writes nothing. Answers one row: created, existing, created_in_window.
-- The memory-optimized hot_seats is written WITH (SNAPSHOT), as in every cross-container transaction here.
CREATE OR ALTER PROCEDURE dbo.add_slots
    @place_id int,
    @slots    dbo.slot_list READONLY,
    @dry_run  bit
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;

    -- The seat-number source below counts to 10,000 (the API's limit on capacity).
    IF EXISTS (SELECT 1 FROM @slots WHERE capacity < 1 OR capacity > 10000)
        THROW 50020, N'add_slots: a slot''s capacity is outside 1..10000', 1;

    BEGIN TRANSACTION;

    DECLARE @horizon date;
    SELECT @horizon = hot_until FROM dbo.places WITH (UPDLOCK, HOLDLOCK) WHERE id = @place_id;
    IF @horizon IS NULL
        THROW 50021, N'add_slots: unknown place', 1;

    DECLARE @fresh TABLE (
        day          date   NOT NULL,
        start_minute int    NOT NULL,
        minutes      int    NOT NULL,
        capacity     int    NOT NULL,
        starts_at    bigint NOT NULL,
        PRIMARY KEY (day, start_minute)
    );
    INSERT @fresh (day, start_minute, minutes, capacity, starts_at)
    SELECT n.day, n.start_minute, n.minutes, n.capacity, n.starts_at
    FROM @slots n
    WHERE NOT EXISTS (SELECT 1 FROM dbo.slots s
                      WHERE s.place_id = @place_id AND s.day = n.day AND s.start_minute = n.start_minute);

    DECLARE @created int = (SELECT COUNT(*) FROM @fresh);
    DECLARE @created_in_window int = (SELECT COUNT(*) FROM @fresh WHERE day < @horizon);
    DECLARE @existing int = (SELECT COUNT(*) FROM @slots) - @created;

    IF @dry_run = 0
    BEGIN
        INSERT dbo.slots (place_id, day, start_minute, minutes, capacity, starts_at)
        SELECT @place_id, day, start_minute, minutes, capacity, starts_at FROM @fresh;

        -- New slots have no seats yet: no existence check is needed.
        WITH digit AS (SELECT n FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS d (n)),
             seat AS (SELECT a.n + (10 * b.n) + (100 * c.n) + (1000 * e.n) + 1 AS seat_no
                      FROM digit a CROSS JOIN digit b CROSS JOIN digit c CROSS JOIN digit e)
        INSERT dbo.hot_seats WITH (SNAPSHOT) (place_id, day, start_minute, seat_no, minutes, starts_at, code)
        SELECT @place_id, f.day, f.start_minute, seat.seat_no, f.minutes, f.starts_at, NULL
        FROM @fresh f
        JOIN seat ON seat.seat_no <= f.capacity
        WHERE f.day < @horizon;
    END

    COMMIT TRANSACTION;

    SELECT @created AS created, @existing AS existing, @created_in_window AS created_in_window;
END
GO
