-- The outbox relay marks the messages it published (@ids, a JSON array of outbox ids) sent at
-- @now; a message already marked keeps its time. Interpreted (OPENJSON has no native form), the
-- memory-optimized outbox written WITH (SNAPSHOT).
CREATE OR ALTER PROCEDURE dbo.sms_mark_sent
    @now bigint,
    @ids nvarchar(max)
AS
BEGIN
    SET NOCOUNT ON;
    UPDATE dbo.outbox WITH (SNAPSHOT) SET sent_at = @now
    WHERE id IN (SELECT CAST(value AS bigint) FROM OPENJSON(@ids)) AND sent_at IS NULL;
END
GO
