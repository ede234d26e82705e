-- The cold path: a place's stored horizon (days before it are hot); NULL for an unknown place.
CREATE OR ALTER PROCEDURE dbo.cold_horizon
    @place_id int,
    @horizon  date OUTPUT
AS
BEGIN
    SET NOCOUNT ON;

    SET @horizon = NULL;
    SELECT @horizon = hot_until FROM dbo.places WHERE id = @place_id;
END
GO
