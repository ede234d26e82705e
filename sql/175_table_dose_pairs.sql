-- Disk: two-dose bookings' links (issue 41), as dose_pairs is on PostgreSQL and SQLite. A pair is
-- two reservations, the first dose's (its code is the person's) and the second's, seated in one
-- transaction and linked here in it. The second dose usually lies beyond the hot window, on the
-- disk tables, while the first is on the memory-optimized ones: the link is a disk row, written in
-- the cross-container transaction that seats both (docs/sqlserver.md). Codes only: nothing personal.
IF OBJECT_ID(N'dbo.dose_pairs', N'U') IS NULL
CREATE TABLE dbo.dose_pairs (
    first_code  varchar(16) COLLATE Latin1_General_100_BIN2 NOT NULL,
    second_code varchar(16) COLLATE Latin1_General_100_BIN2 NOT NULL,
    service_id  int         NOT NULL,
    created_at  bigint      NOT NULL,
    CONSTRAINT pk_dose_pairs PRIMARY KEY CLUSTERED (first_code),
    CONSTRAINT uq_dose_pairs_second UNIQUE (second_code)
);
GO
