-- A join widens the days its place's waiting list wants (dbo.waitlist_wanted, sql/083), in the
-- join's own transaction: the shared EF Core store's JoinAsync calls it after writing the entry, as
-- SQL Server's hook (SqlServerWaitingListStore). From that commit on, a seat dbo.cancel or
-- dbo.reschedule frees on those days is kept for the line instead of opened to everyone. A proc
-- beside the hot path's because the native procs read the table. Interpreted, inside the caller's
-- transaction, so the memory-optimized table carries WITH (SNAPSHOT); two joins of one place that
-- widen at once meet as a write-write conflict (41302), which dooms the later one's transaction,
-- and the adapter retries that join whole.
CREATE OR ALTER PROCEDURE dbo.waitlist_want
    @place_id int,
    @from     date,
    @to       date
AS
BEGIN
    SET NOCOUNT ON;
    UPDATE dbo.waitlist_wanted WITH (SNAPSHOT)
    SET from_day = IIF(@from < from_day, @from, from_day), to_day = IIF(@to > to_day, @to, to_day)
    WHERE place_id = @place_id;
    IF @@ROWCOUNT = 0
        INSERT dbo.waitlist_wanted WITH (SNAPSHOT) (place_id, from_day, to_day) VALUES (@place_id, @from, @to);
END
GO
