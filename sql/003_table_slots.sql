-- Disk: the slot catalogue, every slot ever generated, in or out of the hot window.
IF OBJECT_ID(N'dbo.slots', N'U') IS NULL
CREATE TABLE dbo.slots (
    place_id     int    NOT NULL CONSTRAINT fk_slots_places REFERENCES dbo.places (id),
    day          date   NOT NULL,
    start_minute int    NOT NULL,   -- minutes after local midnight
    minutes      int    NOT NULL CONSTRAINT ck_slots_minutes CHECK (minutes > 0),
    capacity     int    NOT NULL CONSTRAINT ck_slots_capacity CHECK (capacity >= 1),
    starts_at    bigint NOT NULL,   -- Unix seconds
    -- The service (issue 41); a database created before this column gets it from 132_alter_service_id.sql,
    -- and the key with it from 133_alter_slots_service_key.sql.
    service_id   int    NOT NULL CONSTRAINT df_slots_service_id DEFAULT (1),
    CONSTRAINT pk_slots PRIMARY KEY CLUSTERED (place_id, day, start_minute, service_id)
);
GO
