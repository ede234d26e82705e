-- Seals an opening's pre-queue once its opening time has come (as dbo.waiting_room_join does before
-- a batch): the joins so far are the pre-queue, shuffled by @key. Answers one row: sealed (1, or 0
-- when it was sealed already, is not open or not yet due).
CREATE OR ALTER PROCEDURE dbo.waiting_room_seal
    @id  bigint,
    @key varbinary(32),
    @now bigint
AS
BEGIN
    SET NOCOUNT ON;
    UPDATE dbo.waiting_room_openings WITH (SNAPSHOT) SET pre_queue = joined, shuffle_key = @key, version = version + 1
    WHERE id = @id AND pre_queue IS NULL AND opens_at <= @now AND state = 1;
    DECLARE @sealed int = @@ROWCOUNT;
    SELECT @sealed AS sealed;
END
GO
