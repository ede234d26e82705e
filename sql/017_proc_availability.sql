-- Slots of a place in [@from, @to] with their free seats, in start order: one ordered seek on
-- ix_hot_seats_slot. Free = all seats minus the booked ones (COUNT(code) skips NULLs) minus the
-- ones the waiting list holds back (hold is 1 on those, 0 on the rest, and a held seat has no
-- code), which avoids CASE (native modules have CASE only from SQL Server 2017).
CREATE OR ALTER PROCEDURE dbo.availability
    @place_id int,
    @from     date,
    @to       date
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT day, start_minute, MIN(minutes) AS minutes, COUNT(*) AS capacity,
        COUNT(*) - COUNT(code) - SUM(hold) AS free, MIN(starts_at) AS starts_at
    FROM dbo.hot_seats
    WHERE place_id = @place_id AND day >= @from AND day <= @to
    GROUP BY day, start_minute
    ORDER BY day, start_minute;
END
GO
