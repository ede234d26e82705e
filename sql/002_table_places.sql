-- Disk: the places people book at. hot_until is the window horizon: days before it live in the
-- hot tables, days from it on take the cold path.
IF OBJECT_ID(N'dbo.places', N'U') IS NULL
CREATE TABLE dbo.places (
    id          int IDENTITY(1, 1) NOT NULL,
    name        nvarchar(200)      NOT NULL,
    address     nvarchar(400)      NOT NULL,
    region      nvarchar(100)      NOT NULL,
    time_zone   varchar(64)        NOT NULL,   -- IANA id
    active      bit                NOT NULL CONSTRAINT df_places_active DEFAULT (1),
    hot_until   date               NOT NULL,
    CONSTRAINT pk_places PRIMARY KEY CLUSTERED (id),
    INDEX ix_places_region_name NONCLUSTERED (region, name)
);
GO
