-- Hot: changes waiting for dbo.flush_changes, drained in id order. Each row carries the whole
-- reservation, so the flush never needs the hot row (a cancel deletes it).
IF OBJECT_ID(N'dbo.changes', N'U') IS NULL
CREATE TABLE dbo.changes (
    id           bigint        IDENTITY(1, 1) NOT NULL,
    kind         int           NOT NULL,
    code         varchar(16)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    place_id     int           NOT NULL,
    day          date          NOT NULL,
    start_minute int           NOT NULL,
    seat_no      int           NOT NULL,
    person_hash  varchar(64)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    phone        varchar(16)   NOT NULL,
    name         nvarchar(100) NOT NULL,
    language     varchar(8)    NOT NULL,
    created_at   bigint        NOT NULL,
    at           bigint        NOT NULL,
    -- The service (issue 41); a database created before this column gets it from 132_alter_service_id.sql.
    service_id   int           NOT NULL CONSTRAINT df_changes_service_id DEFAULT (1),
    CONSTRAINT pk_changes PRIMARY KEY NONCLUSTERED (id)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
