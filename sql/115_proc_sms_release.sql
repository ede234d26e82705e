-- A consumer gives up its own claim on an SMS (status 3 under its @claim token), and nothing else:
-- another consumer's claim and a send's record stay.
CREATE OR ALTER PROCEDURE dbo.sms_release
    @id    bigint,
    @claim varchar(32)
AS
BEGIN
    SET NOCOUNT ON;
    DELETE dbo.sms_sent WHERE message_id = @id AND status = 3 AND claim = @claim;
END
GO
