-- The send's record (status 1 sent or 2 given up) in place of the claim; a record already there
-- stays. A racing redelivery that inserts first makes this insert fail on the key (2627), which the
-- adapter takes as the record standing.
CREATE OR ALTER PROCEDURE dbo.sms_record
    @id     bigint,
    @kind   int,
    @code   varchar(16),
    @status int,
    @tries  int,
    @at     bigint
AS
BEGIN
    SET NOCOUNT ON;
    UPDATE dbo.sms_sent SET status = @status, tries = @tries, sent_at = @at, claim = NULL
    WHERE message_id = @id AND status = 3;
    IF @@ROWCOUNT = 0
        INSERT dbo.sms_sent (message_id, kind, code, status, tries, sent_at)
        SELECT @id, @kind, @code, @status, @tries, @at
        WHERE NOT EXISTS (SELECT 1 FROM dbo.sms_sent WHERE message_id = @id);
END
GO
