-- A hot seat's state in columns of its own (issue 38), for a database whose dbo.hot_seats was
-- created before 005_table_hot_seats.sql had them: code is a booking's code or NULL; hold is 1 while
-- the waiting list holds the seat back from the crowd, with offer_id naming the offer that holds it
-- (none: kept for the line). Until this script the code column carried the hold ('~h' and the offer
-- id, or '~w'); those rows move to the columns here.
--
-- In-Memory OLTP (SQL Server 2016 and later) allows ALTER TABLE ... ADD on a memory-optimized
-- table, also while schema-bound native procs reference it (they bind the columns they name, and
-- adding one changes none of those). The change is offline: SQL Server rebuilds the table in memory,
-- needing room for a second copy of its rows, and blocks every reader and writer of dbo.hot_seats
-- until it ends; both columns are added in one statement, so the table is rebuilt once. A NOT NULL
-- column needs its default to fill the rows already there. Apply it with the API stopped (the
-- `migrate` command): the procs still installed take code IS NULL for free until the migrator
-- applies their new definitions, which it does after every schema script (SqlServerMigrator).
IF COL_LENGTH(N'dbo.hot_seats', N'hold') IS NULL
    ALTER TABLE dbo.hot_seats
        ADD hold     smallint NOT NULL CONSTRAINT df_hot_seats_hold DEFAULT (0),
            offer_id bigint   NULL;
GO
-- Its own batch: a batch is compiled whole, and the columns exist only once the ALTER above ran.
-- Idempotent: once moved, no code starts with '~'.
UPDATE dbo.hot_seats WITH (SNAPSHOT)
SET hold = 1, offer_id = CONVERT(bigint, SUBSTRING(code, 3, 20)), code = NULL
WHERE code LIKE '~h%';
UPDATE dbo.hot_seats WITH (SNAPSHOT)
SET hold = 1, code = NULL
WHERE code = '~w';
GO
