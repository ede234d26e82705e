-- Both doses in one booking (issue 41 item 3): the first dose through the native dbo.reserve (a hot
-- day) or dbo.cold_reserve (a disk day), the second at the earliest free seat of @service_id at the place from @day2_from to @day2_to at
-- @minute2, in ONE transaction, so a pair commits whole or not at all. Interpreted, because the
-- second dose usually lies beyond the hot window on the disk tables, which a natively compiled
-- proc cannot reach: this is a cross-container transaction (memory-optimized and disk tables), its
-- memory-optimized reads under SNAPSHOT (MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT, sql/001), its disk
-- reads under locks. The second dose is seated by dbo.seat_second_dose (sql/177: hot days first, then
-- disk days from the horizon; its link and the person's end) inside this transaction. No seat
-- for the second dose: everything is rolled back, the key included (a retry asks again), and
-- @outcome is 12 (SecondDoseFull). A replay (the key seen before) answers as dbo.reserve does.
CREATE OR ALTER PROCEDURE dbo.reserve_pair
    @place_id        int,
    @day             date,
    @start_minute    int,
    @service_id      int,
    @person_hash     varchar(64),
    @phone           varchar(16),
    @name            nvarchar(100),
    @language        varchar(8),
    @new_code        varchar(16),
    @seat_hint       int,
    @idempotency_key varchar(100),
    @fingerprint     varchar(64),
    @now             bigint,
    @second_code     varchar(16),
    @day2_from       date,
    @day2_to         date,
    @minute2         int,
    @outcome         int OUTPUT,
    @code            varchar(16) OUTPUT,
    @replayed        bit OUTPUT,
    @day2            date OUTPUT,
    @minutes2        int OUTPUT
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    SET @day2 = NULL;
    SET @minutes2 = NULL;
    BEGIN TRANSACTION;
    -- The place's row under a shared lock held to the end: the window mover takes it exclusively, so
    -- the first dose's side of the horizon, and the disk days of the second, hold until the commit.
    DECLARE @horizon date = (SELECT hot_until FROM dbo.places WITH (HOLDLOCK) WHERE id = @place_id);
    DECLARE @route int = 0;
    IF @day >= @horizon
        -- Its own BEGIN and COMMIT nest inside this transaction: nothing commits before this proc does.
        EXEC dbo.cold_reserve @place_id, @day, @start_minute, @person_hash, @phone, @name, @language, @new_code,
            @idempotency_key, @fingerprint, @now, @route OUTPUT, @outcome OUTPUT, @code OUTPUT, @replayed OUTPUT;
    ELSE
        EXEC dbo.reserve @place_id, @day, @start_minute, @person_hash, @phone, @name, @language, @new_code, @seat_hint,
            @idempotency_key, @fingerprint, @now, @outcome OUTPUT, @code OUTPUT, @replayed OUTPUT;
    IF @route <> 0 OR @outcome <> 1 OR @replayed = 1
    BEGIN
        COMMIT TRANSACTION;
        RETURN;
    END;

    EXEC dbo.seat_second_dose @place_id, @service_id, @person_hash, @phone, @name, @language, @new_code, @second_code,
        @day2_from, @day2_to, @minute2, @now, @day2 OUTPUT, @minutes2 OUTPUT;
    IF @day2 IS NULL
    BEGIN
        ROLLBACK TRANSACTION;
        SELECT @outcome = 12, @code = NULL, @day2 = NULL, @minutes2 = NULL;
        RETURN;
    END;
    COMMIT TRANSACTION;
END
GO
