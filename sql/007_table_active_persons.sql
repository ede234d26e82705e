-- Hot: who holds an active future reservation (hot or cold path); one row per person and service.
IF OBJECT_ID(N'dbo.active_persons', N'U') IS NULL
CREATE TABLE dbo.active_persons (
    person_hash varchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL,
    code        varchar(16) COLLATE Latin1_General_100_BIN2 NOT NULL,
    ends_at     bigint      NOT NULL,
    -- The service (issue 41); a database created before this column gets it from 132_alter_service_id.sql.
    service_id  int         NOT NULL CONSTRAINT df_active_persons_service_id DEFAULT (1),
    -- At most one person per hot seat: 5,000,000 -> 2^23 buckets for both keys. A person holds one
    -- booking per service (issue 41); a database created before the service was in the key gets it
    -- from 134_alter_hot_service_keys.sql.
    CONSTRAINT pk_active_persons PRIMARY KEY NONCLUSTERED HASH (person_hash, service_id) WITH (BUCKET_COUNT = 8388608),
    -- Cancel and reschedule find the holder by code.
    INDEX ix_active_persons_code NONCLUSTERED HASH (code) WITH (BUCKET_COUNT = 8388608),
    -- Eviction drops rows whose reservation has ended.
    INDEX ix_active_persons_ends NONCLUSTERED (ends_at)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
