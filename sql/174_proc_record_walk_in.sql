-- The trail's row of a booking site staff made on someone's behalf (a walk-in, issue 41), written by
-- the adapter right after dbo.reserve or dbo.cold_reserve answered it booked (SqlServerWalkIns).
-- Neither proc takes an author yet, so this is its own statement, not the booking's transaction,
-- and the confirmation SMS always goes here: the row says sms (docs/sqlserver.md).
CREATE OR ALTER PROCEDURE dbo.record_walk_in
    @at       bigint,
    @actor    nvarchar(256),
    @place_id int,
    @code     varchar(16)
AS
BEGIN
    SET NOCOUNT ON;
    INSERT dbo.staff_audit (at, actor, place_id, action, target, reason)
    VALUES (@at, @actor, @place_id, 'walk-in', @code, 'sms');
END
GO
