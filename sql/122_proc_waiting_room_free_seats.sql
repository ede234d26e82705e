-- The seats still free at the places of @places (a JSON array of place ids), in one row: hot days,
-- the free seat rows (no booking, no hold) of slots yet to start; cold days (from the place's
-- horizon on), the catalogue's seats less the active reservations. Interpreted (OPENJSON and the
-- disk tables have no native form); the memory-optimized hot_seats read WITH (SNAPSHOT).
CREATE OR ALTER PROCEDURE dbo.waiting_room_free_seats
    @places nvarchar(max),
    @now    bigint
AS
BEGIN
    SET NOCOUNT ON;
    SELECT
      (SELECT COUNT_BIG(*) FROM dbo.hot_seats WITH (SNAPSHOT)
       WHERE place_id IN (SELECT CAST(value AS int) FROM OPENJSON(@places)) AND code IS NULL AND hold = 0 AND starts_at > @now)
    + (SELECT COALESCE(SUM(CAST(s.capacity AS bigint)), 0) FROM dbo.slots s JOIN dbo.places p ON p.id = s.place_id
       WHERE s.place_id IN (SELECT CAST(value AS int) FROM OPENJSON(@places)) AND s.day >= p.hot_until AND s.starts_at > @now)
    - (SELECT COUNT_BIG(*) FROM dbo.reservations r JOIN dbo.places p ON p.id = r.place_id
       WHERE r.place_id IN (SELECT CAST(value AS int) FROM OPENJSON(@places)) AND r.day >= p.hot_until AND r.cancelled_at IS NULL);
END
GO
