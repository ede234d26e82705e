-- Disk: batches of invitation codes (issue 41), as invitation_batches is on PostgreSQL and SQLite.
-- An admin makes a batch for a service and downloads its codes once; a batch can be revoked.
IF OBJECT_ID(N'dbo.invitation_batches', N'U') IS NULL
CREATE TABLE dbo.invitation_batches (
    id         int           IDENTITY (1, 1) NOT NULL,
    service_id int           NOT NULL,
    label      nvarchar(100) NOT NULL,
    size       int           NOT NULL,
    created_at bigint        NOT NULL,
    created_by nvarchar(256) NOT NULL,
    revoked_at bigint        NULL,
    revoked_by nvarchar(256) NULL,
    CONSTRAINT pk_invitation_batches PRIMARY KEY CLUSTERED (id),
    CONSTRAINT fk_invitation_batches_service FOREIGN KEY (service_id) REFERENCES dbo.services (id)
);
GO
