-- The claim column of sms_sent (status 3, sending), as on PostgreSQL and SQL Server. The embedded
-- default's database belongs to one process, whose SMS delivery keeps two copies of a message apart
-- in memory, so SQLite's store claims nothing (SqliteSmsStore.ClaimAsync); the column keeps the
-- table the same on every backend.
ALTER TABLE sms_sent ADD COLUMN claim TEXT NULL;
