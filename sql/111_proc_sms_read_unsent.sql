-- The outbox relay's read: up to @max unsent messages, oldest first. (sent_at, id) puts the unsent
-- rows (NULL sorts first) at the front of the outbox's range index (sql/009), in id order.
-- Interpreted, like every SMS proc: the memory-optimized outbox is read WITH (SNAPSHOT), the hint
-- it needs outside a native proc under READ COMMITTED.
CREATE OR ALTER PROCEDURE dbo.sms_read_unsent
    @max int
AS
BEGIN
    SET NOCOUNT ON;
    SELECT TOP (@max) id, kind, code, phone, language, place_id, day, start_minute, note
    FROM dbo.outbox WITH (SNAPSHOT) WHERE sent_at IS NULL ORDER BY sent_at, id;
END
GO
