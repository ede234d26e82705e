-- Disk: the last run of each scheduler job (when, how long, rows moved, outcome, node), for the
-- admin jobs view. Written once per run by dbo.record_job_run; a handful of rows.
IF OBJECT_ID(N'dbo.job_runs', N'U') IS NULL
CREATE TABLE dbo.job_runs (
    job         varchar(100)  NOT NULL,
    started_at  bigint        NOT NULL,
    duration_ms bigint        NOT NULL,
    rows_moved  bigint        NOT NULL,
    ok          bit           NOT NULL,
    instance    nvarchar(200) NOT NULL,
    CONSTRAINT pk_job_runs PRIMARY KEY CLUSTERED (job)
);
GO
