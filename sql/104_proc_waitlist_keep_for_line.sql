-- The seats of the offers decided at @at in @state (3 expired, 4 withdrawn) go from their hold back
-- to the line: offer_id NULL, hold kept, so the offer job hands them to the next in line. Called by
-- the shared EF Core store's leave and offer step, inside their transaction, after they moved the
-- entries and then the offers (SqlServerWaitingListStore's hook; on SQLite and PostgreSQL the same
-- update is LINQ). A proc beside the hot path's because it writes hot seats; interpreted, so the
-- memory-optimized table carries WITH (SNAPSHOT), and a booking that meets the row is a conflict
-- (41302) that dooms the caller's transaction for the adapter to retry.
CREATE OR ALTER PROCEDURE dbo.waitlist_keep_for_line
    @state smallint,
    @at    bigint
AS
BEGIN
    SET NOCOUNT ON;
    UPDATE s SET offer_id = NULL
    FROM dbo.hot_seats s WITH (SNAPSHOT)
    JOIN dbo.waitlist_offers f
      ON f.state = @state AND f.decided_at = @at
     AND f.place_id = s.place_id AND f.day = s.day AND f.start_minute = s.start_minute AND f.seat_no = s.seat_no
    WHERE s.offer_id = f.id;
END
GO
