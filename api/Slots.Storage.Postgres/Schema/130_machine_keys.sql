-- Keys for scripts (X-Api-Key), created and revoked by admins (EfMachineKeyStore): the SHA-256 of
-- each key, never the key; a name, a role (admin or viewer), an expiry, who made it and who revoked
-- it. Times in Unix seconds. Rows stay after revoking: the list shows what existed and when.
CREATE TABLE IF NOT EXISTS machine_keys (
    id         bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name       text   NOT NULL,
    role       text   NOT NULL,
    hash       text   NOT NULL UNIQUE,
    created_at bigint NOT NULL,
    created_by text   NOT NULL,
    expires_at bigint NOT NULL,
    revoked_at bigint NULL,
    revoked_by text   NULL
);
