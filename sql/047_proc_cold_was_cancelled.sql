-- A cancel retried after its first try took effect (the answer lost with a killed instance or a
-- dropped connection): whether the code's reservation was cancelled and the proof is its owner's,
-- so the retry is answered as the first try was, not "not found". A cancel the flush has not
-- copied yet is in dbo.changes (kind 2), one it has copied is dbo.reservations with cancelled_at.
--   @cancelled 1 cancelled by its owner, 0 otherwise (unknown code, live reservation, other proof)
CREATE OR ALTER PROCEDURE dbo.cold_was_cancelled
    @code        varchar(16),
    @phone       varchar(16),   -- null when not given
    @person_hash varchar(64),   -- null when not given
    @cancelled   int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET @cancelled = 0;

    IF EXISTS (SELECT 1 FROM dbo.changes WITH (SNAPSHOT)
               WHERE code = @code AND kind = 2 AND (phone = @phone OR person_hash = @person_hash))
        OR EXISTS (SELECT 1 FROM dbo.reservations
                   WHERE code = @code AND cancelled_at IS NOT NULL AND (phone = @phone OR person_hash = @person_hash))
        SET @cancelled = 1;
END
GO
