-- Replaces a job's last run in dbo.job_runs (an upsert without MERGE: UPDATE, then INSERT when
-- nothing was there; UPDLOCK + HOLDLOCK keep two nodes from inserting the same job twice).
CREATE OR ALTER PROCEDURE dbo.record_job_run
    @job         varchar(100),
    @started_at  bigint,
    @duration_ms bigint,
    @rows_moved  bigint,
    @ok          bit,
    @instance    nvarchar(200)
AS
BEGIN
    SET NOCOUNT ON;
    SET XACT_ABORT ON;
    BEGIN TRANSACTION;
    UPDATE dbo.job_runs WITH (UPDLOCK, HOLDLOCK)
    SET started_at = @started_at, duration_ms = @duration_ms, rows_moved = @rows_moved, ok = @ok, instance = @instance
    WHERE job = @job;
    IF @@ROWCOUNT = 0
        INSERT dbo.job_runs (job, started_at, duration_ms, rows_moved, ok, instance)
        VALUES (@job, @started_at, @duration_ms, @rows_moved, @ok, @instance);
    COMMIT TRANSACTION;
END
GO
