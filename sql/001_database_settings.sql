-- Database settings In-Memory OLTP needs. Runs outside any transaction (ALTER DATABASE cannot
-- run inside one); every step checks first, so re-running it changes nothing.

-- 130 (SQL Server 2016) is the first level with the native-proc surface the scripts use
-- (OR in predicates, TOP with ORDER BY, aggregates, ALTER of native procs).
IF (SELECT compatibility_level FROM sys.databases WHERE database_id = DB_ID()) < 130
    ALTER DATABASE CURRENT SET COMPATIBILITY_LEVEL = 130;
GO

-- Interpreted T-SQL in an explicit transaction may then touch the hot tables without a hint;
-- the sync procs still say WITH (SNAPSHOT) so they never depend on it.
IF NOT EXISTS (SELECT 1 FROM sys.databases WHERE database_id = DB_ID() AND is_memory_optimized_elevate_to_snapshot_on = 1)
    ALTER DATABASE CURRENT SET MEMORY_OPTIMIZED_ELEVATE_TO_SNAPSHOT = ON;
GO

-- The filegroup and its container hold the checkpoint files of the SCHEMA_AND_DATA tables.
IF NOT EXISTS (SELECT 1 FROM sys.filegroups WHERE type = 'FX')
    ALTER DATABASE CURRENT ADD FILEGROUP slots_mod CONTAINS MEMORY_OPTIMIZED_DATA;
GO

-- The container is a folder next to the data files; its path is only known at run time.
IF NOT EXISTS (SELECT 1 FROM sys.database_files WHERE type = 2)
BEGIN
    DECLARE @folder nvarchar(4000) = CONVERT(nvarchar(4000), SERVERPROPERTY('InstanceDefaultDataPath'))
        + DB_NAME() + N'_mod';
    DECLARE @sql nvarchar(max) = N'ALTER DATABASE ' + QUOTENAME(DB_NAME())
        + N' ADD FILE (NAME = N''slots_mod'', FILENAME = N''' + REPLACE(@folder, N'''', N'''''')
        + N''') TO FILEGROUP slots_mod';
    EXEC sys.sp_executesql @sql;
END
GO
