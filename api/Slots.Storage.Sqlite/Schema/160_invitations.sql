-- Invitation codes (issue 41), as on PostgreSQL (190_invitations.sql there): batches of single-use
-- codes for a service, kept only as keyed hashes; a code is spent by the booking it made eligible
-- and stays bound to that person. revoked is the batch's revocation copied onto each code. Erasure
-- blanks person_hash and keeps spent_at: the code is dead then.
CREATE TABLE invitation_batches (
    id         INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    service_id INTEGER NOT NULL REFERENCES services (id),
    label      TEXT    NOT NULL,
    size       INTEGER NOT NULL,
    created_at INTEGER NOT NULL,
    created_by TEXT    NOT NULL,
    revoked_at INTEGER,
    revoked_by TEXT
);

CREATE TABLE invitation_codes (
    hash        TEXT    NOT NULL PRIMARY KEY,
    batch_id    INTEGER NOT NULL REFERENCES invitation_batches (id),
    service_id  INTEGER NOT NULL,
    revoked     INTEGER NOT NULL DEFAULT 0,
    person_hash TEXT,
    spent_code  TEXT,
    spent_at    INTEGER
) WITHOUT ROWID;

CREATE INDEX ix_invitation_codes_batch ON invitation_codes (batch_id);
CREATE INDEX ix_invitation_codes_spent_code ON invitation_codes (spent_code) WHERE spent_code IS NOT NULL;
