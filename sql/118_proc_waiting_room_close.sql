-- Closes an open opening (state 2) at @now. Answers one row: closed (1, or 0 when it was not open).
-- Two closers racing on the row: the later one meets 41302, and the adapter's retry closes nothing.
CREATE OR ALTER PROCEDURE dbo.waiting_room_close
    @id  bigint,
    @now bigint
AS
BEGIN
    SET NOCOUNT ON;
    UPDATE dbo.waiting_room_openings WITH (SNAPSHOT) SET state = 2, closed_at = @now, version = version + 1
    WHERE id = @id AND state = 1;
    DECLARE @closed int = @@ROWCOUNT;
    SELECT @closed AS closed;
END
GO
