-- Hot: one row per seat of every slot inside the window (sized for 5 million seats).
-- Bucket counts: SQL Server rounds BUCKET_COUNT up to a power of two, and a hash index works best
-- with 1-2x as many buckets as distinct keys. 5,000,000 seats -> 2^23 = 8,388,608 buckets (1.7x),
-- 64 MB of bucket array; fewer buckets make long chains, far more only waste memory.
IF OBJECT_ID(N'dbo.hot_seats', N'U') IS NULL
CREATE TABLE dbo.hot_seats (
    place_id     int         NOT NULL,
    day          date        NOT NULL,
    start_minute int         NOT NULL,
    seat_no      int         NOT NULL,
    minutes      int         NOT NULL,
    starts_at    bigint      NOT NULL,
    code         varchar(16) COLLATE Latin1_General_100_BIN2 NULL,   -- the booking's; null while none holds it
    -- 1 while the waiting list holds the seat back from the crowd: kept for its line (offer_id null)
    -- or held for one offer (offer_id, dbo.waitlist_offers.id). Free is code IS NULL AND hold = 0.
    -- A database created before these two columns gets them from 100_alter_hot_seats_hold.sql.
    hold         smallint    NOT NULL CONSTRAINT df_hot_seats_hold DEFAULT (0),
    offer_id     bigint      NULL,
    -- The service (issue 41); a database created before this column gets it from 132_alter_service_id.sql.
    service_id   int         NOT NULL CONSTRAINT df_hot_seats_service_id DEFAULT (1),
    -- Point lookups: claim and release address one seat by its full key. A seat belongs to one
    -- service's slot (issue 41); a database created before the service was in the keys gets them
    -- from 134_alter_hot_service_keys.sql.
    CONSTRAINT pk_hot_seats PRIMARY KEY NONCLUSTERED HASH (place_id, day, start_minute, service_id, seat_no)
        WITH (BUCKET_COUNT = 8388608),
    -- Range scans: the seats of one service's slot (seat choice) and a place's days (availability)
    -- are one ordered seek; a hash index cannot serve a key prefix.
    INDEX ix_hot_seats_slot NONCLUSTERED (place_id, day, start_minute, service_id, seat_no)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
