-- Whether the message has a send's record in dbo.sms_sent (status 1 sent or 2 given up; a claim,
-- status 3, is not one): answers a row (1) when it has, none when not.
CREATE OR ALTER PROCEDURE dbo.sms_was_sent
    @id bigint
AS
BEGIN
    SET NOCOUNT ON;
    SELECT 1 FROM dbo.sms_sent WHERE message_id = @id AND status <> 3;
END
GO
