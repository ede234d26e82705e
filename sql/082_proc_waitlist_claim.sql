-- A claim of the seat held for a waiting-list entry (interpreted: it writes the disk tables of
-- 080-081 beside the hot ones), as waitlist_claim is on PostgreSQL:
--   @status 1 booked (@booked_code: the booking; a claim again answers the same one), 2 no open
--   offer (or none for @offered_day and @offered_minute, the offer the claim was made for, when
--   given), 3 the hold expired, 4 the person holds another booking, 5 a two-dose service's second
--   dose found no seat in its range (@second_code, @day2_from, @day2_to, @minute2; NULL for one
--   appointment).
-- In one transaction: the held seat is freed (hold back to 0, offer_id to NULL) and
-- booked through dbo.reserve under an Idempotency-Key of the offer's own, the scan starting at the
-- held seat; if dbo.reserve does not book, the seat is held again and its refusal, recorded under
-- the key, is dropped (PostgreSQL rolls both back with its sub-transaction), so a claim after the
-- person's other booking is cancelled books.
--
-- Against the offer job (SqlServerWaitingListStore): the entry's row is locked first (UPDLOCK +
-- HOLDLOCK, then its open offer), and the job expires or withdraws an offer only after updating
-- its entry, so the two take turns in one lock order: a claim that comes first books and the job
-- then finds the entry booked; a job that comes first leaves the claim no open offer (3 or 2).
-- Two claims of one entry queue on the same lock, and the second answers the first's booking.
-- Against the native procs: dbo.reserve of anyone else takes only seats with no code and no hold,
-- so a held seat is never theirs; while this transaction has freed it, their snapshot still sees it
-- held. Should both pick the same free seat, or this booking meet a native cancel or reschedule of
-- the person's other booking on its active_persons row, the later writer gets 41302 at once; this
-- proc is then rolled back whole (XACT_ABORT) and the adapter retries it (SqlServerRetryPolicy).
-- The hot tables are touched WITH (SNAPSHOT) (see dbo.load_hot_days).
CREATE OR ALTER PROCEDURE dbo.waitlist_claim
    @token        varchar(64),
    @code         varchar(16),   -- the booking's code if this claim books
    @now          bigint,        -- Unix seconds
    @offered_day     date = NULL,
    @offered_minute  int = NULL,
    @second_code  varchar(16) = NULL,
    @day2_from    date = NULL,
    @day2_to      date = NULL,
    @minute2      int = NULL,
    @status       int OUTPUT,
    @booked_code  varchar(16) OUTPUT,
    @place_id     int OUTPUT,
    @day          date OUTPUT,
    @start_minute int OUTPUT,
    @minutes      int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    SET @status = 2;
    SET @booked_code = NULL;
    SET @minutes = 0;

    BEGIN TRANSACTION;

    DECLARE @entry bigint = NULL, @state smallint, @person varchar(64), @phone varchar(16), @name nvarchar(100),
        @language varchar(8);
    SELECT @entry = id, @state = state, @person = person_hash, @phone = phone, @name = name, @language = language
    FROM dbo.waitlist WITH (UPDLOCK, HOLDLOCK)
    WHERE token = @token;
    IF @entry IS NULL
    BEGIN
        COMMIT TRANSACTION;
        RETURN;
    END

    -- A claim again answers the booking it made.
    SELECT TOP (1) @booked_code = code, @place_id = place_id, @day = day, @start_minute = start_minute
    FROM dbo.waitlist_offers
    WHERE entry_id = @entry AND state = 2
    ORDER BY id DESC;
    IF @booked_code IS NOT NULL
    BEGIN
        SELECT @minutes = minutes FROM dbo.slots WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute;
        SET @status = 1;
        COMMIT TRANSACTION;
        RETURN;
    END

    DECLARE @offer bigint = NULL, @seat_no int, @expires_at bigint, @service_id int;
    SELECT TOP (1) @offer = id, @place_id = place_id, @day = day, @start_minute = start_minute, @seat_no = seat_no,
        @expires_at = expires_at, @service_id = service_id
    FROM dbo.waitlist_offers WITH (UPDLOCK, HOLDLOCK)
    WHERE entry_id = @entry AND state = 1
    ORDER BY id DESC;
    IF @offer IS NULL
    BEGIN
        SET @status = IIF(@state = 5, 3, 2);
        COMMIT TRANSACTION;
        RETURN;
    END
    IF @expires_at <= @now
    BEGIN
        SET @status = 3;
        COMMIT TRANSACTION;
        RETURN;
    END
    IF @offered_day IS NOT NULL AND (@day <> @offered_day OR @start_minute <> @offered_minute)
    BEGIN
        COMMIT TRANSACTION;
        RETURN;
    END

    DECLARE @key varchar(100) = 'waitlist-offer-' + CONVERT(varchar(20), @offer);
    -- dbo.reserve's scan starts at seat (@seat_hint % capacity) + 1: the seat just freed.
    DECLARE @seat_hint int = @seat_no - 1;
    DECLARE @outcome int = NULL, @replayed bit = NULL;

    UPDATE dbo.hot_seats WITH (SNAPSHOT) SET hold = 0, offer_id = NULL
    WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute AND seat_no = @seat_no
      AND offer_id = @offer;

    EXEC dbo.reserve @place_id = @place_id, @day = @day, @start_minute = @start_minute, @person_hash = @person,
        @phone = @phone, @name = @name, @language = @language, @new_code = @code, @seat_hint = @seat_hint,
        @idempotency_key = @key, @fingerprint = 'waitlist-offer', @now = @now,
        @outcome = @outcome OUTPUT, @code = @booked_code OUTPUT, @replayed = @replayed OUTPUT;

    IF @outcome IS NULL OR @outcome <> 1
    BEGIN
        -- Not booked: the seat is held again (nobody took it: the others' snapshots saw it held).
        UPDATE dbo.hot_seats WITH (SNAPSHOT) SET hold = 1, offer_id = @offer
        WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute AND seat_no = @seat_no
          AND hold = 0 AND code IS NULL;
        DELETE dbo.idempotency WITH (SNAPSHOT) WHERE [key] = @key AND fingerprint = 'waitlist-offer';
        SET @status = IIF(@outcome = 3, 4, 2);
        SET @booked_code = NULL;
        COMMIT TRANSACTION;
        RETURN;
    END

    IF @second_code IS NOT NULL AND @replayed = 0
    BEGIN
        DECLARE @day2 date, @minutes2 int;
        EXEC dbo.seat_second_dose @place_id = @place_id, @service_id = @service_id, @person_hash = @person, @phone = @phone,
            @name = @name, @language = @language, @first_code = @booked_code, @second_code = @second_code,
            @day2_from = @day2_from, @day2_to = @day2_to, @minute2 = @minute2, @now = @now,
            @day2 = @day2 OUTPUT, @minutes2 = @minutes2 OUTPUT;
        IF @day2 IS NULL
        BEGIN
            -- Not a pair, so nothing: the hold's end, the booking and its key go back together.
            ROLLBACK TRANSACTION;
            SET @status = 5;
            SET @booked_code = NULL;
            RETURN;
        END
    END

    UPDATE dbo.waitlist_offers SET state = 2, decided_at = @now, code = @booked_code WHERE id = @offer;
    UPDATE dbo.waitlist SET state = 3, decided_at = @now WHERE id = @entry;
    SELECT @minutes = minutes FROM dbo.slots WHERE place_id = @place_id AND day = @day AND start_minute = @start_minute;
    SET @status = 1;

    COMMIT TRANSACTION;
END
GO
