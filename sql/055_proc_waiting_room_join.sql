-- A batch of joins to one opening, in one transaction (interpreted): seals the pre-queue first
-- when the opening time has come (so a join after the opening never lands in it), then gives each
-- new person the next ticket in @persons order and each known one theirs. A person twice in one
-- batch is one join. Answers one row per @persons row, in order (ticket, is_new), or none when
-- the opening is not open. Two batches racing on one opening both write its row: the second gets
-- 41302 (or 41325 at commit) and the adapter runs it again, when it sees the first one's tickets.
-- The memory-optimized tables are read and written WITH (SNAPSHOT), as in every interpreted
-- transaction here.
CREATE OR ALTER PROCEDURE dbo.waiting_room_join
    @opening_id  bigint,
    @persons     dbo.waiting_room_persons READONLY,
    @now         bigint,
    @shuffle_key varbinary(32)
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;

    BEGIN TRANSACTION;

    UPDATE dbo.waiting_room_openings WITH (SNAPSHOT)
    SET pre_queue = joined, shuffle_key = @shuffle_key, version = version + 1
    WHERE id = @opening_id AND pre_queue IS NULL AND opens_at <= @now AND state = 1;

    DECLARE @joined bigint;
    SELECT @joined = joined FROM dbo.waiting_room_openings WITH (SNAPSHOT) WHERE id = @opening_id AND state = 1;
    IF @joined IS NULL
    BEGIN
        COMMIT;
        RETURN;
    END

    DECLARE @answer TABLE (ordinal int NOT NULL PRIMARY KEY, ticket bigint NOT NULL, is_new bit NOT NULL);
    INSERT @answer (ordinal, ticket, is_new)
    SELECT p.ordinal, j.ticket, 0
    FROM @persons p
    JOIN dbo.waiting_room_joins j WITH (SNAPSHOT) ON j.opening_id = @opening_id AND j.person_hash = p.person_hash;

    DECLARE @fresh TABLE (ordinal int NOT NULL PRIMARY KEY, person_hash varchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL, ticket bigint NOT NULL);
    INSERT @fresh (ordinal, person_hash, ticket)
    SELECT f.ordinal, f.person_hash, @joined + ROW_NUMBER() OVER (ORDER BY f.ordinal)
    FROM (SELECT MIN(p.ordinal) AS ordinal, p.person_hash
          FROM @persons p
          WHERE NOT EXISTS (SELECT 1 FROM @answer a WHERE a.ordinal = p.ordinal)
          GROUP BY p.person_hash) AS f;

    INSERT dbo.waiting_room_joins WITH (SNAPSHOT) (opening_id, person_hash, ticket, joined_at)
    SELECT @opening_id, person_hash, ticket, @now FROM @fresh;

    INSERT @answer (ordinal, ticket, is_new)
    SELECT ordinal, ticket, 1 FROM @fresh;
    INSERT @answer (ordinal, ticket, is_new)
    SELECT p.ordinal, f.ticket, 0
    FROM @persons p
    JOIN @fresh f ON f.person_hash = p.person_hash AND f.ordinal <> p.ordinal;

    DECLARE @added bigint = (SELECT COUNT_BIG(*) FROM @fresh);
    UPDATE dbo.waiting_room_openings WITH (SNAPSHOT) SET joined = @joined + @added WHERE id = @opening_id;

    COMMIT;

    SELECT ticket, is_new FROM @answer ORDER BY ordinal;
END
GO
