-- Hot: idempotency keys with the answer they got; kept at least 24 hours.
-- "key" is the logical column name on every backend, hence the brackets.
IF OBJECT_ID(N'dbo.idempotency', N'U') IS NULL
CREATE TABLE dbo.idempotency (
    [key]       varchar(100) COLLATE Latin1_General_100_BIN2 NOT NULL,
    fingerprint varchar(64)  COLLATE Latin1_General_100_BIN2 NOT NULL,
    outcome     int          NOT NULL,
    code        varchar(16)  COLLATE Latin1_General_100_BIN2 NULL,
    created_at  bigint       NOT NULL,
    -- One key per request that reached the store in the last 24 hours; sized like the seats
    -- (2^23). A stampede with many refused attempts lengthens chains a little, it never fails.
    CONSTRAINT pk_idempotency PRIMARY KEY NONCLUSTERED HASH ([key]) WITH (BUCKET_COUNT = 8388608),
    -- The purge of keys older than a day is a range scan.
    INDEX ix_idempotency_created NONCLUSTERED (created_at)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
