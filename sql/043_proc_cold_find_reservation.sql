-- The cold path: an active reservation on a day from its place's stored horizon on (not yet copied
-- to the hot tables), by code; no row otherwise. The caller checks the proof (phone or person
-- hash). Columns in dbo.find_reservation's order, so both read the same way.
CREATE OR ALTER PROCEDURE dbo.cold_find_reservation
    @code varchar(16)
AS
BEGIN
    SET NOCOUNT ON;

    SELECT r.place_id, r.day, r.start_minute, s.minutes, r.seat_no, r.phone, r.person_hash, r.name,
        r.language, r.created_at
    FROM dbo.reservations r
    JOIN dbo.places p ON p.id = r.place_id
    JOIN dbo.slots s ON s.place_id = r.place_id AND s.day = r.day AND s.start_minute = r.start_minute
    WHERE r.code = @code AND r.cancelled_at IS NULL AND r.day >= p.hot_until;
END
GO
