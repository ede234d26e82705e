-- Disk: a seat held for one waiting-list entry, as waitlist_offers is on PostgreSQL. The hot seat
-- has hold 1 and offer_id this offer's id (005_table_hot_seats.sql) until the offer is claimed (the
-- seat becomes the booking's), expires or is withdrawn (offer_id back to NULL: kept for the next in
-- line).
-- state 1 open, 2 claimed, 3 expired, 4 withdrawn. An entry has at most one open offer: the offer
-- job writes it with the entry's move from waiting to offered.
IF OBJECT_ID(N'dbo.waitlist_offers', N'U') IS NULL
CREATE TABLE dbo.waitlist_offers (
    id           bigint      IDENTITY(1, 1) NOT NULL,
    entry_id     bigint      NOT NULL,
    place_id     int         NOT NULL,
    day          date        NOT NULL,
    start_minute int         NOT NULL,
    seat_no      int         NOT NULL,
    offered_at   bigint      NOT NULL,   -- Unix seconds
    expires_at   bigint      NOT NULL,
    state        smallint    NOT NULL,
    decided_at   bigint      NULL,
    code         varchar(16) COLLATE Latin1_General_100_BIN2 NULL,   -- the booking a claim made
    -- The service (issue 41); a database created before this column gets it from 132_alter_service_id.sql.
    service_id   int         NOT NULL CONSTRAINT df_waitlist_offers_service_id DEFAULT (1),
    CONSTRAINT pk_waitlist_offers PRIMARY KEY CLUSTERED (id),
    -- The offer job's look for holds that ran out: only the open ones.
    INDEX ix_waitlist_offers_open NONCLUSTERED (expires_at) WHERE state = 1,
    -- An entry's offers: the claim, the leave and the entry's page.
    INDEX ix_waitlist_offers_entry NONCLUSTERED (entry_id)
);
GO
