-- The service in the hot keys (issue 41), for a database whose tables were created before
-- 005_table_hot_seats.sql, 007_table_active_persons.sql and 004_table_reservations.sql named it:
-- a seat belongs to one service's slot (two services at the same minute have seats of their own),
-- and a person holds one active booking per service (a test and a vaccination at once, never two
-- tests). The old key stays in front, so a place's days stay one range seek and the seat pick one
-- short one. The natively compiled procs are not changed here (a later script gives them the service).
--
-- In-Memory OLTP (SQL Server 2016 and later) changes a memory-optimized table's indexes and
-- constraints only through ALTER TABLE ... DROP / ADD (CREATE INDEX and DROP INDEX do not apply to
-- them), also while schema-bound native procs reference the table (they bind the columns they name,
-- not its indexes). Each ALTER is offline: SQL Server rebuilds the table in memory, needing room for
-- a second copy of its rows, and blocks every reader and writer of it until it ends. The primary key
-- is dropped and added back in the same batch, so the table is without it only between the two
-- statements; apply the script with the API stopped (the `migrate` command), as
-- 100_alter_hot_seats_hold.sql. Bucket counts are unchanged: each hash index gets back the count it
-- has now (8,388,608 from its CREATE, or Express's 524,288 from 046_index_express_bucket_counts.sql).
-- Each step checks whether its index already names service_id, so re-running changes nothing.
DECLARE @buckets bigint, @sql nvarchar(max);

IF NOT EXISTS (SELECT 1 FROM sys.index_columns ic
               JOIN sys.indexes i ON i.object_id = ic.object_id AND i.index_id = ic.index_id
               JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
               WHERE i.object_id = OBJECT_ID(N'dbo.hot_seats') AND i.name = N'pk_hot_seats' AND c.name = N'service_id')
BEGIN
    SELECT @buckets = bucket_count FROM sys.hash_indexes WHERE object_id = OBJECT_ID(N'dbo.hot_seats') AND name = N'pk_hot_seats';
    ALTER TABLE dbo.hot_seats DROP CONSTRAINT pk_hot_seats;
    SET @sql = N'ALTER TABLE dbo.hot_seats ADD CONSTRAINT pk_hot_seats PRIMARY KEY NONCLUSTERED HASH '
        + N'(place_id, day, start_minute, service_id, seat_no) WITH (BUCKET_COUNT = ' + CONVERT(nvarchar(20), @buckets) + N');';
    EXEC sys.sp_executesql @sql;
END;

IF NOT EXISTS (SELECT 1 FROM sys.index_columns ic
               JOIN sys.indexes i ON i.object_id = ic.object_id AND i.index_id = ic.index_id
               JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
               WHERE i.object_id = OBJECT_ID(N'dbo.hot_seats') AND i.name = N'ix_hot_seats_slot' AND c.name = N'service_id')
BEGIN
    ALTER TABLE dbo.hot_seats DROP INDEX ix_hot_seats_slot;
    ALTER TABLE dbo.hot_seats ADD INDEX ix_hot_seats_slot NONCLUSTERED (place_id, day, start_minute, service_id, seat_no);
END;

IF NOT EXISTS (SELECT 1 FROM sys.index_columns ic
               JOIN sys.indexes i ON i.object_id = ic.object_id AND i.index_id = ic.index_id
               JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
               WHERE i.object_id = OBJECT_ID(N'dbo.active_persons') AND i.name = N'pk_active_persons' AND c.name = N'service_id')
BEGIN
    SELECT @buckets = bucket_count FROM sys.hash_indexes WHERE object_id = OBJECT_ID(N'dbo.active_persons') AND name = N'pk_active_persons';
    ALTER TABLE dbo.active_persons DROP CONSTRAINT pk_active_persons;
    SET @sql = N'ALTER TABLE dbo.active_persons ADD CONSTRAINT pk_active_persons PRIMARY KEY NONCLUSTERED HASH '
        + N'(person_hash, service_id) WITH (BUCKET_COUNT = ' + CONVERT(nvarchar(20), @buckets) + N');';
    EXEC sys.sp_executesql @sql;
END;

-- A disk table: its index is dropped and created the ordinary way.
IF NOT EXISTS (SELECT 1 FROM sys.index_columns ic
               JOIN sys.indexes i ON i.object_id = ic.object_id AND i.index_id = ic.index_id
               JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
               WHERE i.object_id = OBJECT_ID(N'dbo.reservations') AND i.name = N'ix_reservations_slot' AND c.name = N'service_id')
BEGIN
    DROP INDEX ix_reservations_slot ON dbo.reservations;
    CREATE NONCLUSTERED INDEX ix_reservations_slot ON dbo.reservations (place_id, day, start_minute, service_id);
END;
GO
