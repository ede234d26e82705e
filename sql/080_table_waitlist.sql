-- Disk: the waiting list of a place, as waitlist is on PostgreSQL: people who want a seat on some
-- of its days when none is free. One entry per person and place while waiting or offered (state 1
-- waiting, 2 offered a held seat, 3 booked through the offer, 4 left: by link or by booking
-- elsewhere, 5 let the hold expire). token is the entry's secret, in the links of its SMS (never in
-- a URL's path or a log). A disk table: few rows, written by the join, the claim and the offer job
-- beside disk tables, and no native proc reads it.
-- Locks: every writer of an entry's offer locks the entry first (the claim, dbo.waitlist_claim, with
-- UPDLOCK + HOLDLOCK; a leave and the offer job by updating it), so the two tables are always locked
-- in that order and a claim and the offer job take turns instead of deadlocking.
-- The filtered indexes need QUOTED_IDENTIFIER and ANSI_NULLS on for every write, which SqlClient
-- sessions and the migrator (which creates the proc that writes here) have by default.
IF OBJECT_ID(N'dbo.waitlist', N'U') IS NULL
CREATE TABLE dbo.waitlist (
    id          bigint        IDENTITY(1, 1) NOT NULL,
    place_id    int           NOT NULL,
    from_day    date          NOT NULL,
    to_day      date          NOT NULL,
    person_hash varchar(64)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    phone       varchar(16)   NOT NULL,
    name        nvarchar(100) NOT NULL,
    language    varchar(8)    NOT NULL,
    token       varchar(64)   COLLATE Latin1_General_100_BIN2 NOT NULL,
    joined_at   bigint        NOT NULL,   -- Unix seconds
    state       smallint      NOT NULL,
    decided_at  bigint        NULL,
    -- The service (issue 41); a database created before this column gets it from 132_alter_service_id.sql.
    service_id  int           NOT NULL CONSTRAINT df_waitlist_service_id DEFAULT (1),
    CONSTRAINT pk_waitlist PRIMARY KEY CLUSTERED (id),
    CONSTRAINT uq_waitlist_token UNIQUE NONCLUSTERED (token),
    -- One entry per person and place on the list; the join seeks it here under a key-range lock.
    INDEX ux_waitlist_person UNIQUE NONCLUSTERED (place_id, person_hash) WHERE state IN (1, 2),
    -- The line of a place in join order: the offer job's read and every entry's position.
    INDEX ix_waitlist_line NONCLUSTERED (place_id, id) WHERE state IN (1, 2)
);
GO
