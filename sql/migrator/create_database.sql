-- The migrator's own, run on master before the database (and so anything in it) exists: creates
-- the database @name when missing.
IF DB_ID(@name) IS NULL
BEGIN
    DECLARE @sql nvarchar(max) = N'CREATE DATABASE ' + QUOTENAME(@name);
    EXEC sys.sp_executesql @sql;
END
