-- Hot: active reservations inside the window, by code.
IF OBJECT_ID(N'dbo.hot_reservations', N'U') IS NULL
CREATE TABLE dbo.hot_reservations (
    code         varchar(16)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    place_id     int           NOT NULL,
    day          date          NOT NULL,
    start_minute int           NOT NULL,
    seat_no      int           NOT NULL,
    minutes      int           NOT NULL,
    starts_at    bigint        NOT NULL,
    person_hash  varchar(64)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    phone        varchar(16)   NOT NULL,
    name         nvarchar(100) NOT NULL,
    language     varchar(8)    NOT NULL,
    created_at   bigint        NOT NULL,
    -- The service (issue 41); a database created before this column gets it from 132_alter_service_id.sql.
    service_id   int           NOT NULL CONSTRAINT df_hot_reservations_service_id DEFAULT (1),
    -- At most one reservation per seat: 5,000,000 -> 2^23 buckets (see 005_table_hot_seats.sql).
    CONSTRAINT pk_hot_reservations PRIMARY KEY NONCLUSTERED HASH (code) WITH (BUCKET_COUNT = 8388608),
    -- Eviction removes whole ended days.
    INDEX ix_hot_reservations_day NONCLUSTERED (day, place_id)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
