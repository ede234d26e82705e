-- The cold path: the place's stored horizon and the catalogue slots of [@from, @to] on and after it,
-- with their free seats (capacity minus active reservations), in start order. Columns in
-- dbo.availability's order. @horizon is NULL for an unknown place (and no rows come back).
-- The caller splits a range at @horizon, so every day is counted once: hot days from dbo.availability.
CREATE OR ALTER PROCEDURE dbo.cold_availability
    @place_id int,
    @from     date,
    @to       date,
    @horizon  date OUTPUT
AS
BEGIN
    SET NOCOUNT ON;

    SET @horizon = NULL;
    SELECT @horizon = hot_until FROM dbo.places WHERE id = @place_id;

    SELECT s.day, s.start_minute, s.minutes, s.capacity,
        CASE WHEN s.capacity > t.taken THEN s.capacity - t.taken ELSE 0 END AS free, s.starts_at
    FROM dbo.slots s
    CROSS APPLY (SELECT COUNT(*) AS taken FROM dbo.reservations r
                 WHERE r.place_id = s.place_id AND r.day = s.day AND r.start_minute = s.start_minute
                   AND r.cancelled_at IS NULL) AS t
    WHERE s.place_id = @place_id AND s.day >= @from AND s.day >= @horizon AND s.day <= @to AND s.closed_by IS NULL
    ORDER BY s.day, s.start_minute;
END
GO
