-- One step of an opening's serving counter (interpreted), guarded: written only while the
-- opening is open and still at the version and counter the caller read, with the wave of the
-- positions it admits, in one transaction. Of two scheduler nodes that read the same counter one
-- moves it; the other updates no row (or meets 41302, is retried, and then updates no row).
-- Answers one row: moved (1 or 0).
CREATE OR ALTER PROCEDURE dbo.waiting_room_step
    @opening_id   bigint,
    @seen_version bigint,
    @seen_served  bigint,
    @served       bigint,
    @seats_left   bigint,
    @credit_at_ms bigint,
    @now_ms       bigint
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;

    BEGIN TRANSACTION;

    UPDATE dbo.waiting_room_openings WITH (SNAPSHOT)
    SET served = @served, seats_left = @seats_left, credit_at_ms = @credit_at_ms, advanced_at = @now_ms, version = version + 1
    WHERE id = @opening_id AND version = @seen_version AND served = @seen_served AND state = 1;
    DECLARE @moved int = @@ROWCOUNT;

    IF @moved = 1 AND @served > @seen_served
        INSERT dbo.waiting_room_waves WITH (SNAPSHOT) (opening_id, first_position, last_position, admitted_at)
        VALUES (@opening_id, @seen_served + 1, @served, @now_ms);

    COMMIT;

    SELECT @moved AS moved;
END
GO
