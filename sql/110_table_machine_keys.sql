-- Disk: keys for scripts (X-Api-Key), created and revoked by admins through the shared EF store's
-- EfMachineKeyStore: the SHA-256 of each key (64 hex digits), never the key; a name, a role (admin
-- or viewer), an expiry, who made it and who revoked it. Times in Unix seconds. A disk table: no
-- native proc reads it, and the key check reads the few working rows every few seconds.
IF OBJECT_ID(N'dbo.machine_keys', N'U') IS NULL
CREATE TABLE dbo.machine_keys (
    id         bigint        IDENTITY(1, 1) NOT NULL,
    name       nvarchar(100) NOT NULL,
    role       varchar(16)   NOT NULL,
    hash       varchar(64)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    created_at bigint        NOT NULL,
    created_by nvarchar(256) NOT NULL,
    expires_at bigint        NOT NULL,
    revoked_at bigint        NULL,
    revoked_by nvarchar(256) NULL,
    CONSTRAINT pk_machine_keys PRIMARY KEY CLUSTERED (id),
    -- One row per key: a second row with the same hash would be the same secret twice.
    CONSTRAINT uq_machine_keys_hash UNIQUE NONCLUSTERED (hash)
);
GO
