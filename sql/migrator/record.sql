-- The migrator's own: a script's record after its turn (@v its file name, @sum its SHA-256).
UPDATE dbo.schema_migrations SET checksum = @sum, applied_at = SYSUTCDATETIME() WHERE version = @v;
IF @@ROWCOUNT = 0 INSERT dbo.schema_migrations (version, checksum) VALUES (@v, @sum);
