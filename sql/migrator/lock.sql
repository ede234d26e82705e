-- The migrator's own, run before any sql/NNN_*.sql script (so not one of them, and not a proc: it
-- must work on a database that has none yet). One migrator at a time (three API replicas may start
-- together): an exclusive application lock that ends with the session; then the bookkeeping table
-- that records which scripts ran, with each script's SHA-256.
DECLARE @result int;
EXEC @result = sys.sp_getapplock @Resource = N'slots_schema_migrations', @LockMode = N'Exclusive',
    @LockOwner = N'Session', @LockTimeout = 300000;
IF @result < 0 THROW 50020, N'Another migrator held the schema lock for 5 minutes.', 1;
IF OBJECT_ID(N'dbo.schema_migrations', N'U') IS NULL
    CREATE TABLE dbo.schema_migrations (
        version    nvarchar(200) NOT NULL CONSTRAINT pk_schema_migrations PRIMARY KEY,
        applied_at datetime2(0)  NOT NULL CONSTRAINT df_schema_migrations_applied DEFAULT (SYSUTCDATETIME()));
IF COL_LENGTH(N'dbo.schema_migrations', N'checksum') IS NULL
    ALTER TABLE dbo.schema_migrations ADD checksum char(64) NULL;
