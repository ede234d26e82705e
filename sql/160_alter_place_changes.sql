-- Places that change (issue 41): an admin edits a place, closes it to new bookings and opens it
-- again, as PostgreSQL's 170_place_changes.sql and SQLite's 140_place_changes.sql do.
-- opening_hours: free text shown on the place page; NULL: not given. closed_at: when an admin
-- closed the place (Unix seconds); NULL: open. The seats close through dbo.site_cancels (one
-- whole-day block per day with slots), as a site's block cancel does. Disk tables only.
IF COL_LENGTH(N'dbo.places', N'opening_hours') IS NULL
    ALTER TABLE dbo.places ADD opening_hours nvarchar(500) NULL;
GO
IF COL_LENGTH(N'dbo.places', N'closed_at') IS NULL
    ALTER TABLE dbo.places ADD closed_at bigint NULL;
GO

-- A block either cancels its bookings (keep_bookings 0, every block before this script) or only
-- closes its slots and keeps them. A block opened again keeps its row, with who opened it and when.
IF COL_LENGTH(N'dbo.site_cancels', N'keep_bookings') IS NULL
    ALTER TABLE dbo.site_cancels ADD keep_bookings bit NOT NULL CONSTRAINT df_site_cancels_keep_bookings DEFAULT (0);
GO
-- closes_place: the block is one of a place's close (one per day), which the place's reopen opens
-- again; a site's own block cancel stands until it is opened again itself.
IF COL_LENGTH(N'dbo.site_cancels', N'closes_place') IS NULL
    ALTER TABLE dbo.site_cancels ADD closes_place bit NOT NULL CONSTRAINT df_site_cancels_closes_place DEFAULT (0);
GO
IF COL_LENGTH(N'dbo.site_cancels', N'reopened_at') IS NULL
    ALTER TABLE dbo.site_cancels ADD reopened_at bigint NULL;
GO
IF COL_LENGTH(N'dbo.site_cancels', N'reopened_by') IS NULL
    ALTER TABLE dbo.site_cancels ADD reopened_by nvarchar(256) NULL;
GO

-- The same block asked for twice is one block while it stands; once opened again, the same hours
-- may be closed again by a new block. A filtered unique index: its writers (the site_cancel procs,
-- sql/065-067 and 161) run with ANSI_NULLS and QUOTED_IDENTIFIER on, as SqlClient sets them.
IF OBJECT_ID(N'dbo.uq_site_cancels_block', N'UQ') IS NOT NULL
    ALTER TABLE dbo.site_cancels DROP CONSTRAINT uq_site_cancels_block;
GO
IF NOT EXISTS (SELECT 1 FROM sys.indexes WHERE object_id = OBJECT_ID(N'dbo.site_cancels') AND name = N'uq_site_cancels_open_block')
    CREATE UNIQUE NONCLUSTERED INDEX uq_site_cancels_open_block ON dbo.site_cancels (place_id, day, from_minute, to_minute)
        WHERE reopened_at IS NULL;
GO
