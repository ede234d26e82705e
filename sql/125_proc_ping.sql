-- The API's readiness check: one cheap read of the migrator's own bookkeeping (dbo.schema_migrations,
-- which the migrator creates before any script), so a database that was never migrated, or that
-- this login cannot read, answers an error rather than a count. Answers one row: the count (int).
CREATE OR ALTER PROCEDURE dbo.ping
AS
BEGIN
    SET NOCOUNT ON;
    SELECT COUNT(*) AS migrations FROM dbo.schema_migrations;
END
GO
