-- A consumer claims an SMS before sending it (dbo.sms_sent's claim, sql/031). One transaction: the
-- message's row read under a key-range update lock held to the end (so two claimers of one message
-- queue here), then a new claim, or a claim whose lease ran out taken over; a record (status 1 or
-- 2) never is. Answers one row: 1 Claimed, 2 Sent, 3 HeldElsewhere (SmsClaimResult).
CREATE OR ALTER PROCEDURE dbo.sms_claim
    @id    bigint,
    @kind  int,
    @code  varchar(16),
    @now   bigint,
    @claim varchar(32),
    @lease bigint
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;

    BEGIN TRANSACTION;
    DECLARE @status int = NULL, @at bigint = NULL, @result int;
    SELECT @status = status, @at = sent_at FROM dbo.sms_sent WITH (UPDLOCK, HOLDLOCK) WHERE message_id = @id;
    IF @status IS NULL
    BEGIN
        INSERT dbo.sms_sent (message_id, kind, code, status, tries, sent_at, claim) VALUES (@id, @kind, @code, 3, 0, @now, @claim);
        SET @result = 1;
    END
    ELSE IF @status = 3 AND @at <= @now - @lease
    BEGIN
        UPDATE dbo.sms_sent SET sent_at = @now, claim = @claim WHERE message_id = @id;
        SET @result = 1;
    END
    ELSE
        SET @result = IIF(@status = 3, 3, 2);
    COMMIT TRANSACTION;

    SELECT @result AS result;
END
GO
