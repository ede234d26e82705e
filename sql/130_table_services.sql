-- Disk: the campaign's catalogue of services (issue 41), as services is on PostgreSQL: what is
-- offered at the places (an antigen test, a PCR test, a vaccine dose). code is the slug used in
-- URLs, deep links and FHIR ids; the BIN2 collation makes the CHECK's [a-z] mean lower case only.
-- A two-dose service names the interval to its second dose in days (both bounds, or neither).
-- Service 1 ('default') is every booking made before services existed, and what every writer that
-- names no service writes (the DEFAULT of service_id, 132_alter_service_id.sql). A disk table: the
-- API reads it into a cache (ServiceDirectory) and no native proc reads it.
IF OBJECT_ID(N'dbo.services', N'U') IS NULL
CREATE TABLE dbo.services (
    id            int           NOT NULL,
    code          varchar(32)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    name_sk       nvarchar(100) NOT NULL,
    name_en       nvarchar(100) NOT NULL,
    dose_min_days int           NULL,
    dose_max_days int           NULL,
    active        bit           NOT NULL CONSTRAINT df_services_active DEFAULT (1),
    CONSTRAINT pk_services PRIMARY KEY CLUSTERED (id),
    CONSTRAINT uq_services_code UNIQUE NONCLUSTERED (code),
    CONSTRAINT ck_services_code CHECK (LEN(code) BETWEEN 1 AND 32 AND code NOT LIKE '%[^a-z0-9-]%'),
    CONSTRAINT ck_services_dose CHECK ((dose_min_days IS NULL AND dose_max_days IS NULL)
        OR (dose_min_days >= 1 AND dose_max_days >= dose_min_days))
);
GO
IF NOT EXISTS (SELECT 1 FROM dbo.services WHERE id = 1)
    INSERT INTO dbo.services (id, code, name_sk, name_en, active)
    VALUES (1, 'default', N'Termín', N'Appointment', 1);
GO
