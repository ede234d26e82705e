-- Wrong phones or national ids sent with a booking code, one row each (the per-code guessing
-- limit, EfWrongProofStore). Counted by code within the last window; forgotten by age.
CREATE TABLE wrong_proofs (
    id   INTEGER PRIMARY KEY AUTOINCREMENT,
    code TEXT    NOT NULL,
    at   INTEGER NOT NULL
);
CREATE INDEX ix_wrong_proofs_code ON wrong_proofs (code, at);
CREATE INDEX ix_wrong_proofs_at ON wrong_proofs (at);
