-- A booking takes an admission (interpreted): the claim row is written unless one is there, and
-- the answer says whether the row holds this booking's key (just written, or by an earlier try of
-- the same booking). One booking per admission: another key finds the row and is refused. Two
-- racers inserting one key: the second meets the first's row (41302/41325/2627), is retried, and
-- reads it. Answers one row: ours (1 or 0).
CREATE OR ALTER PROCEDURE dbo.waiting_room_claim
    @opening_id  bigint,
    @ticket      bigint,
    @position    bigint,
    @booking_key varchar(120),
    @now         bigint
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;

    BEGIN TRANSACTION;

    DECLARE @holder varchar(120);
    SELECT @holder = booking_key FROM dbo.waiting_room_claims WITH (SNAPSHOT) WHERE opening_id = @opening_id AND ticket = @ticket;
    IF @holder IS NULL
    BEGIN
        INSERT dbo.waiting_room_claims WITH (SNAPSHOT) (opening_id, ticket, position, booking_key, claimed_at)
        VALUES (@opening_id, @ticket, @position, @booking_key, @now);
        SET @holder = @booking_key;
    END

    COMMIT;

    SELECT CAST(IIF(@holder = @booking_key, 1, 0) AS bit) AS ours;
END
GO
