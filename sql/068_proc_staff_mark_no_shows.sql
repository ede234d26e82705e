-- The no-show job's step, as the shared EF Core store's MarkNoShowsAsync is on SQLite and
-- PostgreSQL: up to @batch hot bookings whose slot ended by @ended and that have no door record
-- become no-shows (state 3); answers the place of each, one row per booking. A proc beside the hot
-- path's because it writes dbo.attendance, which the native dbo.staff_check_in and dbo.cancel read.
-- Interpreted (it runs from the scheduler, not a request), so the memory-optimized tables carry
-- WITH (SNAPSHOT). A slot's local day is at most a day after the UTC date it ended on (offsets
-- reach +14 h), so @last_day keeps the scan to the ended days on hot_reservations' (day, place_id)
-- index. A check-in that commits first makes this insert of the same code a conflict (41302, or a
-- duplicate key once committed), and the adapter's retry no longer sees the booking without a
-- door record; a check-in that comes later turns the no-show into a check-in (sql/062).
CREATE OR ALTER PROCEDURE dbo.staff_mark_no_shows
    @batch    int,
    @now      bigint,
    @ended    bigint,
    @last_day date
AS
BEGIN
    SET NOCOUNT ON;
    INSERT dbo.attendance WITH (SNAPSHOT) (code, place_id, day, state, at, [by])
    OUTPUT INSERTED.place_id
    SELECT TOP (@batch) h.code, h.place_id, h.day, 3, @now, N'no-show'
    FROM dbo.hot_reservations h WITH (SNAPSHOT)
    WHERE h.day <= @last_day AND h.starts_at + h.minutes * 60 <= @ended
      AND NOT EXISTS (SELECT 1 FROM dbo.attendance a WITH (SNAPSHOT) WHERE a.code = h.code);
END
GO
