-- Keys for scripts (X-Api-Key), created and revoked by admins (EfMachineKeyStore): the SHA-256 of
-- each key, never the key; a name, a role (admin or viewer), an expiry, who made it and who revoked
-- it. Times in Unix seconds. Rows stay after revoking: the list shows what existed and when.
CREATE TABLE machine_keys (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    name       TEXT    NOT NULL,
    role       TEXT    NOT NULL,
    hash       TEXT    NOT NULL UNIQUE,
    created_at INTEGER NOT NULL,
    created_by TEXT    NOT NULL,
    expires_at INTEGER NOT NULL,
    revoked_at INTEGER NULL,
    revoked_by TEXT    NULL
);
