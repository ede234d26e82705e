-- Hot: the days a place's waiting list wants, as one range per place that covers every waiting
-- entry's days (state 1 in dbo.waitlist). Memory-optimized because the native dbo.cancel and
-- dbo.reschedule read it: a seat they free on a wanted day is kept for the line (hold 1, no offer)
-- rather than opened to everyone, as slots_release_seat does on PostgreSQL. A join widens the range in its own
-- transaction; the offer job sets it to its line's days (or drops it) every run. The range may
-- cover days nobody wants (a gap between two entries, an entry that left since the last run): a
-- seat kept then goes back to everyone at the job's next run, which gives back every kept seat its
-- line does not want. A place's range is a range index on the key: few places have a line, and the
-- table stays small.
IF OBJECT_ID(N'dbo.waitlist_wanted', N'U') IS NULL
CREATE TABLE dbo.waitlist_wanted (
    place_id int  NOT NULL,
    from_day date NOT NULL,
    to_day   date NOT NULL,
    CONSTRAINT pk_waitlist_wanted PRIMARY KEY NONCLUSTERED (place_id)
) WITH (MEMORY_OPTIMIZED = ON, DURABILITY = SCHEMA_AND_DATA);
GO
