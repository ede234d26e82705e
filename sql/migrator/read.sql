-- The migrator's own: the scripts that ran, with the checksum recorded for each (NULL when
-- recorded before checksums were).
SELECT version, checksum FROM dbo.schema_migrations;
