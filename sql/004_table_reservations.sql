-- Disk: reservation history, fed by dbo.flush_changes (and written directly by the cold path for
-- days beyond the window). The _BIN2 collation matches the hot tables, so joins on code compare bytes.
IF OBJECT_ID(N'dbo.reservations', N'U') IS NULL
CREATE TABLE dbo.reservations (
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
    cancelled_at bigint        NULL,
    updated_at   bigint        NOT NULL,
    -- The service (issue 41); a database created before this column gets it from 132_alter_service_id.sql.
    service_id   int           NOT NULL CONSTRAINT df_reservations_service_id DEFAULT (1),
    CONSTRAINT pk_reservations PRIMARY KEY CLUSTERED (code),
    -- A service's slot's bookings in one seek (issue 41: 134_alter_hot_service_keys.sql for older databases).
    INDEX ix_reservations_slot NONCLUSTERED (place_id, day, start_minute, service_id)
);
GO
