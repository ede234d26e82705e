-- Day-before reminders: one row per booking and start time reminded (a booking moved to another
-- time is reminded of that one too), written with its SMS in one transaction by the shared EF Core
-- store (EfReminderStore). batch names the run of the reminder job that recorded a row; day finds
-- the rows of past days to forget. A disk table: the reminder job is the only writer, a batch at a time.
IF OBJECT_ID(N'dbo.reminders', N'U') IS NULL
CREATE TABLE dbo.reminders (
    code      varchar(16) COLLATE Latin1_General_100_BIN2 NOT NULL,
    starts_at bigint      NOT NULL,
    place_id  int         NOT NULL,
    day       date        NOT NULL,
    queued_at bigint      NOT NULL,
    batch     bigint      NOT NULL,
    CONSTRAINT pk_reminders PRIMARY KEY (code, starts_at),
    INDEX ix_reminders_batch NONCLUSTERED (batch),
    INDEX ix_reminders_day NONCLUSTERED (day)
);
GO
