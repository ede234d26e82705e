-- Disk: invitation codes (issue 41), only as keyed hashes (HMAC-SHA256 under
-- Slots:Invitations:HmacSecret, 64 hex characters), as invitation_codes is on PostgreSQL and SQLite.
-- A code is spent by the booking it made eligible and stays bound to that person; revoked is its
-- batch's revocation copied onto the code. Erasure blanks person_hash and keeps spent_at. On this
-- backend the native dbo.reserve does not read codes yet, so a booking that needs one is refused
-- (docs/sqlserver.md); the table holds the batches the admin API makes.
IF OBJECT_ID(N'dbo.invitation_codes', N'U') IS NULL
CREATE TABLE dbo.invitation_codes (
    hash        varchar(64)  COLLATE Latin1_General_100_BIN2 NOT NULL,
    batch_id    int          NOT NULL,
    service_id  int          NOT NULL,
    revoked     bit          NOT NULL CONSTRAINT df_invitation_codes_revoked DEFAULT (0),
    person_hash varchar(64)  COLLATE Latin1_General_100_BIN2 NULL,
    spent_code  varchar(16)  COLLATE Latin1_General_100_BIN2 NULL,
    spent_at    bigint       NULL,
    CONSTRAINT pk_invitation_codes PRIMARY KEY CLUSTERED (hash),
    CONSTRAINT fk_invitation_codes_batch FOREIGN KEY (batch_id) REFERENCES dbo.invitation_batches (id),
    INDEX ix_invitation_codes_batch NONCLUSTERED (batch_id)
);
GO
