-- Memory-optimized table type: the rows of one batch reservation (dbo.reserve_batch).
-- Types cannot be altered in place; changing it means a new numbered script that drops the
-- batch proc, drops and recreates the type, and recreates the proc.
IF TYPE_ID(N'dbo.reserve_request') IS NULL
CREATE TYPE dbo.reserve_request AS TABLE (
    request_no      int           NOT NULL,
    place_id        int           NOT NULL,
    day             date          NOT NULL,
    start_minute    int           NOT NULL,
    person_hash     varchar(64)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    phone           varchar(16)   NOT NULL,
    name            nvarchar(100) NOT NULL,
    language        varchar(8)    NOT NULL,
    new_code        varchar(16)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    seat_hint       int           NOT NULL,
    idempotency_key varchar(100)  COLLATE Latin1_General_100_BIN2 NOT NULL,
    fingerprint     varchar(64)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    PRIMARY KEY NONCLUSTERED (request_no)
) WITH (MEMORY_OPTIMIZED = ON);
GO
