-- Table type: one batch of joins to an opening (dbo.waiting_room_join), in arrival order. A
-- disk-based type, read by an interpreted proc. Types cannot be altered in place; changing it
-- means a new numbered script that drops dbo.waiting_room_join, drops and recreates the type,
-- and recreates the proc.
IF TYPE_ID(N'dbo.waiting_room_persons') IS NULL
CREATE TYPE dbo.waiting_room_persons AS TABLE (
    ordinal     int         NOT NULL PRIMARY KEY,
    person_hash varchar(64) COLLATE Latin1_General_100_BIN2 NOT NULL
);
GO
