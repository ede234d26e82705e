-- Memory-optimized table type: the answers dbo.reserve_batch collects before returning them.
IF TYPE_ID(N'dbo.reserve_answer') IS NULL
CREATE TYPE dbo.reserve_answer AS TABLE (
    request_no int         NOT NULL,
    outcome    int         NOT NULL,
    code       varchar(16) COLLATE Latin1_General_100_BIN2 NULL,
    replayed   bit         NOT NULL,
    PRIMARY KEY NONCLUSTERED (request_no)
) WITH (MEMORY_OPTIMIZED = ON);
GO
