-- Disk: wrong phones or national ids sent with a booking code, one row each (the per-code guessing
-- limit, through the shared EF store's EfWrongProofStore). Inserted only, so API instances racing on one code take no
-- lock; rows older than the window are deleted by the next wrong proof. A disk table: no native
-- proc reads it, and only a wrong proof writes it.
IF OBJECT_ID(N'dbo.wrong_proofs', N'U') IS NULL
CREATE TABLE dbo.wrong_proofs (
    id   bigint      IDENTITY(1, 1) NOT NULL,
    code varchar(16) COLLATE Latin1_General_100_BIN2 NOT NULL,
    at   bigint      NOT NULL,
    CONSTRAINT pk_wrong_proofs PRIMARY KEY CLUSTERED (id),
    -- The newest wrong proofs of one code.
    INDEX ix_wrong_proofs_code NONCLUSTERED (code, at),
    -- Forgetting those past the window.
    INDEX ix_wrong_proofs_at NONCLUSTERED (at)
);
GO
