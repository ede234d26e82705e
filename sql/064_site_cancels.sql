-- Disk: a site's cancel of a block of its slots (a time range of one day, or the whole day) with a
-- reason, as site_cancels is on PostgreSQL. dbo.site_cancel_open (065) writes the row and closes
-- the block's slots in one transaction; dbo.site_cancel_batch (066) then cancels its bookings in
-- batches, each a transaction of its own, until none is left (finished_at). An unfinished block is
-- resumed by whichever scheduler finds it idle (progress_at), so a crash in the middle loses
-- nothing. A booking's attendance row (state 5, cancelled by the site), written in the batch that
-- cancels it, is what makes each booking cancelled and told once.
-- A disk table: few rows, written beside disk tables (slots, reservations, staff_audit), and no
-- native proc reads it.
IF OBJECT_ID(N'dbo.site_cancels', N'U') IS NULL
CREATE TABLE dbo.site_cancels (
    id          bigint        IDENTITY(1, 1) NOT NULL,
    place_id    int           NOT NULL,
    day         date          NOT NULL,
    from_minute int           NOT NULL,   -- the block is the slots starting in [from_minute, to_minute)
    to_minute   int           NOT NULL,   -- up to 1440: the whole day
    reason      nvarchar(100) NOT NULL,   -- goes into every SMS of the block (BlockCancelOptions.MaxReason)
    actor       nvarchar(256) NOT NULL,   -- a token subject, as in staff_audit
    created_at  bigint        NOT NULL,   -- Unix seconds
    progress_at bigint        NOT NULL,
    finished_at bigint        NULL,
    cancelled   int           NOT NULL CONSTRAINT df_site_cancels_cancelled DEFAULT (0),
    kept        int           NOT NULL CONSTRAINT df_site_cancels_kept DEFAULT (0),   -- left as they were: checked in, or already started
    CONSTRAINT pk_site_cancels PRIMARY KEY CLUSTERED (id),
    -- The same block asked for twice is one block; the open proc seeks it here.
    CONSTRAINT uq_site_cancels_block UNIQUE NONCLUSTERED (place_id, day, from_minute, to_minute),
    -- The scheduler's look for stalled blocks: NULL sorts first, so the unfinished rows lead the
    -- index in progress_at order. Not a filtered index: that would make every writer of this table
    -- depend on its session's SET options (QUOTED_IDENTIFIER, ANSI_NULLS), for a table of few rows.
    INDEX ix_site_cancels_unfinished NONCLUSTERED (finished_at, progress_at)
);
GO

-- A closed slot takes no booking: the window leaves it out of the hot seats, the cold path refuses
-- it. The block's id, so a slot shows which cancel closed it. Its own batch: a statement that
-- names the column compiles only once the column exists.
IF COL_LENGTH(N'dbo.slots', N'closed_by') IS NULL
    ALTER TABLE dbo.slots ADD closed_by bigint NULL;
GO

-- What a text needs beyond the booking: the site's reason for its cancel (kind 4). Adding a
-- nullable column to a memory-optimized table is an offline ALTER (SQL Server 2016 on); the native
-- procs that insert here name their columns, so their schema binding allows it.
IF COL_LENGTH(N'dbo.outbox', N'note') IS NULL
    ALTER TABLE dbo.outbox ADD note nvarchar(100) NULL;
GO
