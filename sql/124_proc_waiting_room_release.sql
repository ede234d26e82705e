-- A booking that did not happen gives back its admission: the claim dbo.waiting_room_claim took
-- for this ticket and booking key, and no other.
CREATE OR ALTER PROCEDURE dbo.waiting_room_release
    @id     bigint,
    @ticket bigint,
    @key    varchar(120)
AS
BEGIN
    SET NOCOUNT ON;
    DELETE dbo.waiting_room_claims WITH (SNAPSHOT) WHERE opening_id = @id AND ticket = @ticket AND booking_key = @key;
END
GO
