-- The admissions an opening has outstanding, in one row: unexpired waves (admitted after @since,
-- milliseconds) are the newest, so the positions from the oldest of them to the counter, less those
-- a booking used (dbo.waiting_room_claims).
CREATE OR ALTER PROCEDURE dbo.waiting_room_outstanding
    @id    bigint,
    @since bigint
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @lo bigint, @hi bigint;
    SELECT @lo = MIN(first_position), @hi = MAX(last_position)
    FROM dbo.waiting_room_waves WITH (SNAPSHOT) WHERE opening_id = @id AND admitted_at > @since;
    SELECT COALESCE(@hi - @lo + 1, 0)
         - (SELECT COUNT_BIG(*) FROM dbo.waiting_room_claims WITH (SNAPSHOT) WHERE opening_id = @id AND position >= @lo);
END
GO
