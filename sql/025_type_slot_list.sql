-- Table type: the slots one admin request adds to one place (dbo.add_slots). A disk-based type:
-- slot generation is an admin action of a few thousand rows, not the hot path.
-- Types cannot be altered in place; changing it means a new numbered script that drops
-- dbo.add_slots, drops and recreates the type, and recreates the proc.
IF TYPE_ID(N'dbo.slot_list') IS NULL
CREATE TYPE dbo.slot_list AS TABLE (
    day          date   NOT NULL,
    start_minute int    NOT NULL,
    minutes      int    NOT NULL,
    capacity     int    NOT NULL,
    starts_at    bigint NOT NULL,
    PRIMARY KEY (day, start_minute)
);
GO
