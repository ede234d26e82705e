-- Window sync (interpreted): moves the catalogue days [@from, @to] of a place into the hot
-- tables and advances its horizon, in one transaction, so a cold-path writer (which reads the
-- horizon under the place's row lock) never sees a half-loaded day. Seats already hot are kept,
-- so a rerun after a crash loads only what is missing.
-- The memory-optimized tables are read and written WITH (SNAPSHOT): the only isolation a
-- cross-container transaction may use on them next to a locking read on a disk table.
-- Rows affected, as the caller (HotWindowLoader) sees them, are the seats loaded: only that
-- INSERT runs with NOCOUNT off. The return value says the same.
CREATE OR ALTER PROCEDURE dbo.load_hot_days
    @place_id int,
    @from     date,
    @to       date
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;

    -- The seat-number source below counts to 10,000; a slot above that is a data error, not a
    -- reason to load it half.
    IF EXISTS (SELECT 1 FROM dbo.slots WHERE place_id = @place_id AND day BETWEEN @from AND @to AND capacity > 10000)
        THROW 50010, N'load_hot_days: a slot has more than 10000 seats', 1;

    BEGIN TRANSACTION;

    -- The row lock on the place serialises this load with cold-path writes to the same place.
    -- XLOCK, not UPDLOCK: a U lock is compatible with the shared (S) locks the cold procs hold on
    -- this row (sql/040-042), so an UPDLOCK mover could copy the cold reservations while a cold
    -- write is still under way and miss it. X waits for every cold writer and holds off new ones.
    DECLARE @horizon date;
    SELECT @horizon = hot_until FROM dbo.places WITH (XLOCK, HOLDLOCK, ROWLOCK) WHERE id = @place_id;
    IF @horizon IS NULL
        THROW 50011, N'load_hot_days: unknown place', 1;

    SET NOCOUNT OFF;
    WITH digit AS (SELECT n FROM (VALUES (0), (1), (2), (3), (4), (5), (6), (7), (8), (9)) AS d (n)),
         seat AS (SELECT a.n + (10 * b.n) + (100 * c.n) + (1000 * e.n) + 1 AS seat_no
                  FROM digit a CROSS JOIN digit b CROSS JOIN digit c CROSS JOIN digit e)
    INSERT dbo.hot_seats WITH (SNAPSHOT) (place_id, day, start_minute, seat_no, minutes, starts_at, code)
    SELECT s.place_id, s.day, s.start_minute, seat.seat_no, s.minutes, s.starts_at, NULL
    FROM dbo.slots s
    JOIN seat ON seat.seat_no <= s.capacity
    WHERE s.place_id = @place_id AND s.day BETWEEN @from AND @to
      AND s.closed_by IS NULL   -- a slot the site closed (sql/064) gets no seats
      AND NOT EXISTS (SELECT 1 FROM dbo.hot_seats h WITH (SNAPSHOT)
                      WHERE h.place_id = s.place_id AND h.day = s.day AND h.start_minute = s.start_minute
                        AND h.seat_no = seat.seat_no);
    DECLARE @loaded int = @@ROWCOUNT;
    SET NOCOUNT ON;

    -- Cold-path reservations of these days become hot: their seats taken, their rows by code.
    UPDATE h SET code = r.code
    FROM dbo.hot_seats h WITH (SNAPSHOT)
    JOIN dbo.reservations r
      ON r.place_id = h.place_id AND r.day = h.day AND r.start_minute = h.start_minute AND r.seat_no = h.seat_no
    WHERE h.place_id = @place_id AND h.day BETWEEN @from AND @to
      AND r.cancelled_at IS NULL AND h.code IS NULL;

    INSERT dbo.hot_reservations WITH (SNAPSHOT) (code, place_id, day, start_minute, seat_no, minutes, starts_at,
        person_hash, phone, name, language, created_at)
    SELECT r.code, r.place_id, r.day, r.start_minute, r.seat_no, s.minutes, s.starts_at,
        r.person_hash, r.phone, r.name, r.language, r.created_at
    FROM dbo.reservations r
    JOIN dbo.slots s ON s.place_id = r.place_id AND s.day = r.day AND s.start_minute = r.start_minute
    WHERE r.place_id = @place_id AND r.day BETWEEN @from AND @to AND r.cancelled_at IS NULL
      AND NOT EXISTS (SELECT 1 FROM dbo.hot_reservations x WITH (SNAPSHOT) WHERE x.code = r.code);

    UPDATE dbo.places SET hot_until = DATEADD(day, 1, @to)
    WHERE id = @place_id AND hot_until <= @to;

    COMMIT TRANSACTION;
    RETURN @loaded;
END
GO
