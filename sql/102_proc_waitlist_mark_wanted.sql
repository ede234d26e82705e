-- The days a place's waiting list wants, as the native dbo.cancel and dbo.reschedule read them: the
-- range of its waiting entries' days, or no row when none waits. A join widens it at once
-- (dbo.waitlist_want); the offer job narrows it here once a run, before it reads the place's line,
-- so a seat kept for days nobody wants any more is at most one run away from going back to everyone
-- (a join between this read and its write is widened again at the next run). Interpreted; the
-- memory-optimized table carries WITH (SNAPSHOT), and a conflict with a join's widening (41302) is
-- retried by the adapter.
CREATE OR ALTER PROCEDURE dbo.waitlist_mark_wanted
    @place_id int
AS
BEGIN
    SET NOCOUNT ON;
    DECLARE @from date = NULL, @to date = NULL;
    SELECT @from = MIN(from_day), @to = MAX(to_day) FROM dbo.waitlist WHERE place_id = @place_id AND state = 1;
    IF @from IS NULL
        DELETE dbo.waitlist_wanted WITH (SNAPSHOT) WHERE place_id = @place_id;
    ELSE
    BEGIN
        UPDATE dbo.waitlist_wanted WITH (SNAPSHOT) SET from_day = @from, to_day = @to WHERE place_id = @place_id;
        IF @@ROWCOUNT = 0
            INSERT dbo.waitlist_wanted WITH (SNAPSHOT) (place_id, from_day, to_day) VALUES (@place_id, @from, @to);
    END
END
GO
