-- Disk: what each place offers (issue 41), as place_services is on PostgreSQL: seats per slot and
-- the slot template of each service (minutes after local midnight), NULL until an admin sets them;
-- the four template columns are set together or not at all. A new place gets its row for service 1
-- when it is created (EfCatalogStore.AddPlaceAsync). A disk table: read into the API's cache.
IF OBJECT_ID(N'dbo.place_services', N'U') IS NULL
CREATE TABLE dbo.place_services (
    place_id         int NOT NULL CONSTRAINT fk_place_services_places REFERENCES dbo.places (id),
    service_id       int NOT NULL CONSTRAINT fk_place_services_services REFERENCES dbo.services (id),
    seats            int NULL CONSTRAINT ck_place_services_seats CHECK (seats >= 1),
    first_minute     int NULL,
    last_minute      int NULL,
    interval_minutes int NULL,
    length_minutes   int NULL,
    active           bit NOT NULL CONSTRAINT df_place_services_active DEFAULT (1),
    CONSTRAINT pk_place_services PRIMARY KEY CLUSTERED (place_id, service_id),
    CONSTRAINT ck_place_services_template CHECK (
        (first_minute IS NULL AND last_minute IS NULL AND interval_minutes IS NULL AND length_minutes IS NULL)
        OR (first_minute BETWEEN 0 AND 1439 AND last_minute BETWEEN first_minute AND 1439
            AND interval_minutes >= 1 AND length_minutes >= 1))
);
GO
-- Every place offers the default service, with the seats per slot of its latest slot where it has
-- one. Idempotent: a place that has its row keeps it.
INSERT INTO dbo.place_services (place_id, service_id, seats, active)
SELECT p.id, 1,
       (SELECT TOP (1) s.capacity FROM dbo.slots AS s WHERE s.place_id = p.id ORDER BY s.day DESC, s.start_minute DESC),
       1
FROM dbo.places AS p
WHERE NOT EXISTS (SELECT 1 FROM dbo.place_services AS ps WHERE ps.place_id = p.id AND ps.service_id = 1);
GO
