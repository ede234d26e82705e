-- What a node loads of the waiting room, in one call: the openings that are open or closed after
-- @closed (in the columns AdmissionRows.OpeningColumns names, in its order), then their waves
-- admitted after @since (milliseconds).
CREATE OR ALTER PROCEDURE dbo.waiting_room_load
    @closed bigint,
    @since  bigint
AS
BEGIN
    SET NOCOUNT ON;
    SELECT id, scope, opens_at, admit_per_second, admission_seconds, abandon_allowance, state, created_at, closed_at,
           joined, pre_queue, shuffle_key, served, seats_left, advanced_at, credit_at_ms, version
    FROM dbo.waiting_room_openings WITH (SNAPSHOT) WHERE state = 1 OR closed_at > @closed ORDER BY id;
    SELECT w.opening_id, w.first_position, w.last_position, w.admitted_at
    FROM dbo.waiting_room_waves w WITH (SNAPSHOT)
    JOIN dbo.waiting_room_openings o WITH (SNAPSHOT) ON o.id = w.opening_id
    WHERE w.admitted_at > @since AND (o.state = 1 OR o.closed_at > @closed);
END
GO
