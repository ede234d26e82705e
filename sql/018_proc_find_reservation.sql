-- A hot reservation by code, for lookups. The caller checks the proof (phone or person hash).
CREATE OR ALTER PROCEDURE dbo.find_reservation
    @code varchar(16)
WITH NATIVE_COMPILATION, SCHEMABINDING
AS
BEGIN ATOMIC WITH (TRANSACTION ISOLATION LEVEL = SNAPSHOT, LANGUAGE = N'us_english')
    SELECT place_id, day, start_minute, minutes, seat_no, phone, person_hash, name, language, created_at
    FROM dbo.hot_reservations
    WHERE code = @code;
END
GO
