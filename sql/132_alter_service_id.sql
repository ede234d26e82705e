-- The service of each slot, seat, booking, change and waiting-list row (issue 41), for a database
-- whose tables were created before their CREATE scripts had service_id. Every row there is service 1
-- ('default', 130_table_services.sql), and every writer that names no service keeps writing 1
-- through the DEFAULT, so a place with one service behaves exactly as before. The keys do not
-- include the service yet.
--
-- Disk tables: adding a NOT NULL column with a constant DEFAULT is a metadata change (SQL Server
-- 2012 and later on Enterprise, and every edition since 2016 SP1 that runs In-Memory OLTP).
--
-- Memory-optimized tables (hot_seats, hot_reservations, active_persons, changes): In-Memory OLTP
-- (SQL Server 2016 and later) allows ALTER TABLE ... ADD, also while schema-bound native procs
-- reference the table (they bind the columns they name, and adding one changes none of those). The
-- change is offline: SQL Server rebuilds the table in memory, needing room for a second copy of its
-- rows, and blocks every reader and writer of it until it ends; one statement per table, so each is
-- rebuilt once. A NOT NULL column needs its default to fill the rows already there. Apply it with
-- the API stopped (the `migrate` command), as 100_alter_hot_seats_hold.sql.
IF COL_LENGTH(N'dbo.slots', N'service_id') IS NULL
    ALTER TABLE dbo.slots ADD service_id int NOT NULL CONSTRAINT df_slots_service_id DEFAULT (1);
GO
IF COL_LENGTH(N'dbo.reservations', N'service_id') IS NULL
    ALTER TABLE dbo.reservations ADD service_id int NOT NULL CONSTRAINT df_reservations_service_id DEFAULT (1);
GO
IF COL_LENGTH(N'dbo.waitlist', N'service_id') IS NULL
    ALTER TABLE dbo.waitlist ADD service_id int NOT NULL CONSTRAINT df_waitlist_service_id DEFAULT (1);
GO
IF COL_LENGTH(N'dbo.waitlist_offers', N'service_id') IS NULL
    ALTER TABLE dbo.waitlist_offers ADD service_id int NOT NULL CONSTRAINT df_waitlist_offers_service_id DEFAULT (1);
GO
IF COL_LENGTH(N'dbo.hot_seats', N'service_id') IS NULL
    ALTER TABLE dbo.hot_seats ADD service_id int NOT NULL CONSTRAINT df_hot_seats_service_id DEFAULT (1);
GO
IF COL_LENGTH(N'dbo.hot_reservations', N'service_id') IS NULL
    ALTER TABLE dbo.hot_reservations ADD service_id int NOT NULL CONSTRAINT df_hot_reservations_service_id DEFAULT (1);
GO
IF COL_LENGTH(N'dbo.active_persons', N'service_id') IS NULL
    ALTER TABLE dbo.active_persons ADD service_id int NOT NULL CONSTRAINT df_active_persons_service_id DEFAULT (1);
GO
IF COL_LENGTH(N'dbo.changes', N'service_id') IS NULL
    ALTER TABLE dbo.changes ADD service_id int NOT NULL CONSTRAINT df_changes_service_id DEFAULT (1);
GO
