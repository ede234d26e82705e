-- Wrong phones or national ids sent with a booking code, one row each (the per-code guessing
-- limit, EfWrongProofStore): inserted only, so API instances racing on one code take no lock.
-- Counted by code within the last window; forgotten by age.
CREATE TABLE IF NOT EXISTS wrong_proofs (
    id   bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    code text   NOT NULL,
    at   bigint NOT NULL
);
CREATE INDEX IF NOT EXISTS ix_wrong_proofs_code ON wrong_proofs (code, at);
CREATE INDEX IF NOT EXISTS ix_wrong_proofs_at ON wrong_proofs (at);
