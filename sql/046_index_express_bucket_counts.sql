-- SQL Server Express holds at most 352 MB of memory-optimized data per database. The five hash
-- indexes of the hot tables are sized for 5 million seats (2^23 buckets of 8 B: 64 MB each, 320 MB
-- together), which would leave Express almost nothing for rows. A window that fits in 352 MB has
-- well under a million seats, so on Express they get 2^19 = 524,288 buckets (4 MB each): 1-2x the
-- keys of a window of up to about 500,000 seats. Other editions keep the sizes of 005-008.
-- Rebuilding a memory-optimized index rebuilds its table offline; this runs at deploy time, on
-- tables that are still empty. Each step checks the current count, so re-running changes nothing.
IF CONVERT(int, SERVERPROPERTY('EngineEdition')) = 4 -- Express
BEGIN
    IF EXISTS (SELECT 1 FROM sys.hash_indexes WHERE object_id = OBJECT_ID(N'dbo.hot_seats') AND name = N'pk_hot_seats' AND bucket_count > 524288)
        ALTER TABLE dbo.hot_seats ALTER INDEX pk_hot_seats REBUILD WITH (BUCKET_COUNT = 524288);
    IF EXISTS (SELECT 1 FROM sys.hash_indexes WHERE object_id = OBJECT_ID(N'dbo.hot_reservations') AND name = N'pk_hot_reservations' AND bucket_count > 524288)
        ALTER TABLE dbo.hot_reservations ALTER INDEX pk_hot_reservations REBUILD WITH (BUCKET_COUNT = 524288);
    IF EXISTS (SELECT 1 FROM sys.hash_indexes WHERE object_id = OBJECT_ID(N'dbo.active_persons') AND name = N'pk_active_persons' AND bucket_count > 524288)
        ALTER TABLE dbo.active_persons ALTER INDEX pk_active_persons REBUILD WITH (BUCKET_COUNT = 524288);
    IF EXISTS (SELECT 1 FROM sys.hash_indexes WHERE object_id = OBJECT_ID(N'dbo.active_persons') AND name = N'ix_active_persons_code' AND bucket_count > 524288)
        ALTER TABLE dbo.active_persons ALTER INDEX ix_active_persons_code REBUILD WITH (BUCKET_COUNT = 524288);
    IF EXISTS (SELECT 1 FROM sys.hash_indexes WHERE object_id = OBJECT_ID(N'dbo.idempotency') AND name = N'pk_idempotency' AND bucket_count > 524288)
        ALTER TABLE dbo.idempotency ALTER INDEX pk_idempotency REBUILD WITH (BUCKET_COUNT = 524288);
END
GO
