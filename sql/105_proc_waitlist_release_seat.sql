-- A seat kept for a line that no longer wants it is anybody's again (the offer job's release, as
-- the shared EF Core store's ReleaseAsync is on SQLite and PostgreSQL): hold back to 0 only while
-- the seat is kept for the line and held for no offer. @released answers 1 when it was. A proc
-- beside the hot path's because it writes a hot seat; interpreted, WITH (SNAPSHOT), and a conflict
-- (41302) is retried by the adapter.
CREATE OR ALTER PROCEDURE dbo.waitlist_release_seat
    @place_id     int,
    @day          date,
    @start_minute int,
    @seat_no      int,
    @released     int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    UPDATE dbo.hot_seats WITH (SNAPSHOT) SET hold = 0
    WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute AND seat_no = @seat_no AND hold = 1 AND offer_id IS NULL;
    SET @released = @@ROWCOUNT;
END
GO
