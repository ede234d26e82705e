-- Hot: the door's record of a booking (2 checked in, 3 no-show: RosterState), one row per booking
-- code. Memory-optimized because dbo.cancel reads it: a natively compiled proc can read only
-- memory-optimized tables. Apart from hot_reservations so the booking hot path writes nothing more.
-- Rows outlive the window (the roster of a past day still shows who came), so there is no fixed
-- number of keys to size a hash index's buckets for, and no bucket array for Express's 352 MB
-- quota (046) to shrink: the key is a range index, which grows with the rows and still finds one
-- code in a short seek.
IF OBJECT_ID(N'dbo.attendance', N'U') IS NULL
CREATE TABLE dbo.attendance (
    code     varchar(16)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    place_id int           NOT NULL,
    day      date          NOT NULL,
    state    int           NOT NULL,
    at       bigint        NOT NULL,
    [by]     nvarchar(256) NOT NULL,   -- the staff member's token subject (OpenID allows 255 characters)
    CONSTRAINT pk_attendance PRIMARY KEY NONCLUSTERED (code),
    -- The roster reads a place's day.
    INDEX ix_attendance_day NONCLUSTERED (place_id, day)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
