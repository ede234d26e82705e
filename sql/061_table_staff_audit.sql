-- Disk: what staff did, append-only (the adapter only inserts): who, when, where, what, on what,
-- why. No personal data. A disk table: no native proc writes it, and the trail only grows.
IF OBJECT_ID(N'dbo.staff_audit', N'U') IS NULL
CREATE TABLE dbo.staff_audit (
    id       bigint         IDENTITY(1, 1) NOT NULL,
    at       bigint         NOT NULL,
    actor    nvarchar(256)  NOT NULL,   -- a token subject or a machine key's name
    place_id int            NULL,
    action   varchar(64)    NOT NULL,
    target   nvarchar(200)  NULL,
    reason   nvarchar(1000) NULL,
    -- Appended in id order: the clustered key only ever grows at the end.
    CONSTRAINT pk_staff_audit PRIMARY KEY CLUSTERED (id),
    -- The trail of one place, newest first.
    INDEX ix_staff_audit_place NONCLUSTERED (place_id, at),
    -- The trail everywhere (admins), newest first.
    INDEX ix_staff_audit_at NONCLUSTERED (at)
);
GO
