-- One waiting-list offer, as the shared EF Core store's OfferAsync writes it on SQLite and
-- PostgreSQL, in one transaction: the entry moves from waiting to offered (first, as
-- dbo.waitlist_claim locks it), the offer is written, the seat held for it (hold 1, offer_id) if
-- still free or kept for the line, and the SMS queued under the offer's message code ('~h' and the
-- offer's id: the message's reference in the outbox, never a seat's code). Or nothing, when the
-- entry or the seat went meanwhile: a booking that took the seat first, or one that takes it while
-- this runs and meets 41302, is the winner. @offer_id answers the offer's id, or NULL.
-- A proc beside the hot path's because it holds a hot seat and writes the memory-optimized outbox;
-- interpreted (it runs from the offer job), so the hot tables carry WITH (SNAPSHOT), and a conflict
-- rolls it back whole (XACT_ABORT) for the adapter to retry.
CREATE OR ALTER PROCEDURE dbo.waitlist_offer
    @entry_id     bigint,
    @place_id     int,
    @day          date,
    @start_minute int,
    @seat_no      int,
    @now          bigint,        -- Unix seconds
    @expires_at   bigint,
    @phone        varchar(16),
    @language     varchar(8),
    @note         nvarchar(100),
    @offer_id     bigint OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    BEGIN TRANSACTION;
    DECLARE @id bigint = NULL, @message varchar(16);
    UPDATE dbo.waitlist SET state = 2 WHERE id = @entry_id AND state = 1;
    IF @@ROWCOUNT = 1
    BEGIN
        INSERT dbo.waitlist_offers (entry_id, place_id, day, start_minute, seat_no, offered_at, expires_at, state)
        VALUES (@entry_id, @place_id, @day, @start_minute, @seat_no, @now, @expires_at, 1);
        SET @id = CONVERT(bigint, SCOPE_IDENTITY());
        SET @message = '~h' + CONVERT(varchar(20), @id);
        UPDATE dbo.hot_seats WITH (SNAPSHOT) SET hold = 1, offer_id = @id
        WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute AND seat_no = @seat_no
          AND code IS NULL AND offer_id IS NULL;
        IF @@ROWCOUNT = 1
            INSERT dbo.outbox WITH (SNAPSHOT) (kind, code, phone, language, place_id, day, start_minute, created_at, sent_at, note)
            VALUES (6, @message, @phone, @language, @place_id, @day, @start_minute, @now, NULL, @note);
        ELSE
            SET @id = NULL;
    END
    IF @id IS NULL
        ROLLBACK TRANSACTION;
    ELSE
        COMMIT TRANSACTION;
    SET @offer_id = @id;
END
GO
