-- The slot catalogue's key names the service (issue 41), for a database whose dbo.slots was created
-- with the key (place_id, day, start_minute): two services of one place may then start at the same
-- minute. The old columns stay in front, so a place's week is still one range read of the clustered
-- key. Every existing row is service 1 (132_alter_service_id.sql), so the new key holds them all.
-- A disk table: the clustered key is rebuilt offline; apply it with the API stopped (the `migrate`
-- command). Idempotent: it acts only while the key lacks service_id.
IF NOT EXISTS (
    SELECT 1
    FROM sys.index_columns ic
    JOIN sys.indexes i ON i.object_id = ic.object_id AND i.index_id = ic.index_id
    JOIN sys.columns c ON c.object_id = ic.object_id AND c.column_id = ic.column_id
    WHERE i.object_id = OBJECT_ID(N'dbo.slots') AND i.name = N'pk_slots' AND c.name = N'service_id')
BEGIN
    ALTER TABLE dbo.slots DROP CONSTRAINT pk_slots;
    ALTER TABLE dbo.slots ADD CONSTRAINT pk_slots PRIMARY KEY CLUSTERED (place_id, day, start_minute, service_id);
END;
GO
